// SPDX-License-Identifier: MIT
#include "core/hlo/synthetichlo.h"

namespace flint::core::hlo {

std::string makeSyntheticHloModule(std::uint64_t instructions, std::int64_t devices)
{
    const std::int64_t tp = 8;
    const std::int64_t dp = devices / tp;
    const std::string tpGroups =
        "[" + std::to_string(dp) + "," + std::to_string(tp) + "]<=[" + std::to_string(devices) + "]";
    const std::string dpGroups = "[" + std::to_string(tp) + "," + std::to_string(dp) + "]<=[" + std::to_string(dp) +
                                 "," + std::to_string(tp) + "]T(1,0)";
    std::string text = "HloModule synthetic_step, num_partitions=" + std::to_string(devices) + "\n\n";
    text += "add {\n  a = bf16[] parameter(0)\n  b = bf16[] parameter(1)\n  ROOT s = bf16[] add(a, b)\n}\n\n";
    text += "fused_gelu {\n  p = bf16[2048,1024] parameter(0)\n  t = bf16[2048,1024] tanh(p)\n"
            "  ROOT m = bf16[2048,1024] multiply(p, t)\n}\n\n";
    text += "ENTRY main {\n  x.0 = bf16[2048,1024] parameter(0)\n  w = bf16[1024,1024] parameter(1)\n";
    text.reserve(instructions * 220);
    constexpr std::uint64_t kPerLayer = 8;
    const std::uint64_t layers = instructions > 8 ? (instructions - 5) / kPerLayer : 1;
    for (std::uint64_t l = 0; l < layers; ++l) {
        const std::string n = std::to_string(l);
        const std::string meta = ", metadata={op_name=\"jit(step)/layer_" + n + "/";
        text += "  q." + n + " = bf16[2048,1024] dot(x." + n +
                ", w), lhs_contracting_dims={1}, rhs_contracting_dims={0}" + meta + "attn/dot_general\"}\n";
        text += "  ar." + n + " = bf16[2048,1024] all-reduce(q." + n + "), channel_id=" + std::to_string(2 * l + 1) +
                ", replica_groups=" + tpGroups + ", use_global_device_ids=true, to_apply=add" + meta + "attn/psum\"}\n";
        text += "  r." + n + " = bf16[2048,1024] add(ar." + n + ", x." + n + ")" + meta + "attn/add\"}\n";
        text += "  u." + n + " = bf16[2048,1024] dot(r." + n +
                ", w), lhs_contracting_dims={1}, rhs_contracting_dims={0}" + meta + "mlp/dot_general\"}\n";
        text += "  g." + n + " = bf16[2048,1024] fusion(u." + n + "), kind=kLoop, calls=fused_gelu" + meta +
                "mlp/gelu\"}\n";
        text += "  e." + n + " = bf16[2048,1024] exponential(g." + n + ")" + meta + "mlp/exp\"}\n";
        text += "  rs." + n + " = bf16[" + std::to_string(2048 / dp) + ",1024] reduce-scatter(e." + n +
                "), channel_id=" + std::to_string(2 * l + 2) + ", replica_groups=" + dpGroups +
                ", dimensions={0}, use_global_device_ids=true, to_apply=add" + meta + "grad/reduce_scatter\"}\n";
        text += "  x." + std::to_string(l + 1) + " = bf16[2048,1024] multiply(e." + n + ", r." + n + ")" + meta +
                "mlp/mul\"}\n";
    }
    text += "  ROOT out = bf16[2048,1024] copy(x." + std::to_string(layers) + ")\n}\n";
    return text;
}

} // namespace flint::core::hlo

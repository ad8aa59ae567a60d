// SPDX-License-Identifier: MIT
// Hand-written in the form jax.jit(...).lower(...) prints: a Megatron self-attention block with
// sequence parallelism. The batch is data-parallel on mesh axis "x"; the input arrives with its
// sequence split on "y"; Q, K and V are column-parallel (heads on "y"), the output projection is
// row-parallel, and the result leaves with its sequence split on "y" again. Shapes: batch 8,
// sequence 32, hidden 128, 8 heads of 16. tests/mlir/tst_mlirimport.cpp partitions it for several
// meshes: per rank one all-gather (the sequence, before QKV) and one reduce-scatter (the partial
// output, onto the sequence) over the rank's "y" group, nothing over "x".
module @jit_attention attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%x: tensor<8x32x128xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>},
                         %wq: tensor<128x128xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                         %wk: tensor<128x128xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                         %wv: tensor<128x128xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                         %wo: tensor<128x128xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
      -> tensor<8x32x128xbf16> {
    %full = sdy.sharding_constraint %x <@mesh, [{"x"}, {}, {}]> : tensor<8x32x128xbf16> loc("attn/gather_sequence")
    %q2 = stablehlo.dot_general %full, %wq, contracting_dims = [2] x [0] : (tensor<8x32x128xbf16>, tensor<128x128xbf16>) -> tensor<8x32x128xbf16> loc("attn/q")
    %k2 = stablehlo.dot_general %full, %wk, contracting_dims = [2] x [0] : (tensor<8x32x128xbf16>, tensor<128x128xbf16>) -> tensor<8x32x128xbf16> loc("attn/k")
    %v2 = stablehlo.dot_general %full, %wv, contracting_dims = [2] x [0] : (tensor<8x32x128xbf16>, tensor<128x128xbf16>) -> tensor<8x32x128xbf16> loc("attn/v")
    %q = stablehlo.reshape %q2 : (tensor<8x32x128xbf16>) -> tensor<8x32x8x16xbf16>
    %k = stablehlo.reshape %k2 : (tensor<8x32x128xbf16>) -> tensor<8x32x8x16xbf16>
    %v = stablehlo.reshape %v2 : (tensor<8x32x128xbf16>) -> tensor<8x32x8x16xbf16>
    %s = stablehlo.dot_general %q, %k, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : (tensor<8x32x8x16xbf16>, tensor<8x32x8x16xbf16>) -> tensor<8x8x32x32xbf16> loc("attn/scores")
    %ninf = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %m = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [3] : (tensor<8x8x32x32xbf16>, tensor<bf16>) -> tensor<8x8x32xbf16> loc("attn/softmax")
    %mb = stablehlo.broadcast_in_dim %m, dims = [0, 1, 2] : (tensor<8x8x32xbf16>) -> tensor<8x8x32x32xbf16> loc("attn/softmax")
    %sh = stablehlo.subtract %s, %mb : tensor<8x8x32x32xbf16> loc("attn/softmax")
    %e = stablehlo.exponential %sh : tensor<8x8x32x32xbf16> loc("attn/softmax")
    %zero = stablehlo.constant dense<0.0> : tensor<bf16>
    %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [3] : (tensor<8x8x32x32xbf16>, tensor<bf16>) -> tensor<8x8x32xbf16> loc("attn/softmax")
    %sb = stablehlo.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<8x8x32xbf16>) -> tensor<8x8x32x32xbf16> loc("attn/softmax")
    %p = stablehlo.divide %e, %sb : tensor<8x8x32x32xbf16> loc("attn/softmax")
    %c = stablehlo.dot_general %p, %v, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1] : (tensor<8x8x32x32xbf16>, tensor<8x32x8x16xbf16>) -> tensor<8x8x32x16xbf16> loc("attn/context")
    %ct = stablehlo.transpose %c, dims = [0, 2, 1, 3] : (tensor<8x8x32x16xbf16>) -> tensor<8x32x8x16xbf16>
    %c2 = stablehlo.reshape %ct : (tensor<8x32x8x16xbf16>) -> tensor<8x32x128xbf16>
    %o = stablehlo.dot_general %c2, %wo, contracting_dims = [2] x [0] : (tensor<8x32x128xbf16>, tensor<128x128xbf16>) -> tensor<8x32x128xbf16> loc("attn/out")
    %r = sdy.sharding_constraint %o <@mesh, [{"x"}, {"y"}, {}]> : tensor<8x32x128xbf16> loc("attn/scatter_sequence")
    return %r : tensor<8x32x128xbf16>
  }
}

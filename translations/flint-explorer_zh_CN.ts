<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>DagScopeTree</name>
    <message>
        <source>×%1 · %2 each</source>
        <translation>×%1 · 每个 %2</translation>
    </message>
    <message numerus="yes">
        <source>%Ln op(s)</source>
        <translation>
            <numerusform>%Ln 个算子</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln transfer(s)</source>
        <translation>
            <numerusform>%Ln 次传输</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Diagnostics</name>
    <message>
        <source>the module declares no replica_count; %1 replicas inferred from its replica groups</source>
        <translation>模块未声明 replica_count；根据其副本组推断为 %1 个副本</translation>
    </message>
    <message>
        <source>the module declares no num_partitions; %1 partitions inferred from its replica groups</source>
        <translation>模块未声明 num_partitions；根据其副本组推断为 %1 个分区</translation>
    </message>
    <message>
        <source>the module declares no num_partitions; %1 partitions inferred from the global device ids of its collectives</source>
        <translation>模块未声明 num_partitions；根据其集合通信的全局设备 ID 推断为 %1 个分区</translation>
    </message>
    <message>
        <source>the module declares no replica_count; %1 replicas inferred from the global device ids of its collectives</source>
        <translation>模块未声明 replica_count；根据其集合通信的全局设备 ID 推断为 %1 个副本</translation>
    </message>
    <message>
        <source>%1: its replica groups leave some devices out; each runs it alone</source>
        <translation>%1：其副本组遗漏了部分设备；这些设备各自单独执行</translation>
    </message>
    <message>
        <source>%1: trip count unknown; %2 iterations as given</source>
        <translation>%1：迭代次数未知；按给定值执行 %2 次迭代</translation>
    </message>
    <message>
        <source>%1: trip count unknown (no known_trip_count, and its condition depends on values only known at run time); ran once. Give --while-trip-count N</source>
        <translation>%1：迭代次数未知（没有 known_trip_count，且其条件依赖仅在运行时才知道的值）；只执行一次。请指定 --while-trip-count N</translation>
    </message>
    <message>
        <source>%1: %2 iterations, %3 lowered (--max-trip-count); the estimate covers those only</source>
        <translation>%1：%2 次迭代，降级了 %3 次（--max-trip-count）；估算只包含这些</translation>
    </message>
    <message>
        <source>%1: conditional lowered with branch %2 of %3 (the most FLOPs)</source>
        <translation>%1：条件分支按 %3 个分支中的第 %2 个降级（FLOPs 最多）</translation>
    </message>
    <message>
        <source>%1: send without _xla_send_recv_source_target_pairs; its peers are unknown</source>
        <translation>%1：send 缺少 _xla_send_recv_source_target_pairs；其对端未知</translation>
    </message>
    <message>
        <source>the module is already partitioned (%1 collectives, no partitioner annotations); the mesh %2 is not used</source>
        <translation>模块已经分区（%1 个集合通信，没有分区器注解）；不使用网格 %2</translation>
    </message>
    <message>
        <source>the module is not SPMD-partitioned (%1 sharding annotations and %2 partitioner calls) and could not be partitioned (%3): every rank is estimated running the whole global program</source>
        <translation>模块未经 SPMD 分区（%1 个分片注解和 %2 个分区器调用），且无法分区（%3）：每个 rank 都按运行整个全局程序估算</translation>
    </message>
    <message>
        <source>replica_count %1 is not modelled when partitioning; one replica of %2 partitions is estimated</source>
        <translation>分区时不对 replica_count %1 建模；估算的是 %2 个分区的一个副本</translation>
    </message>
    <message>
        <source>%1 of %2 ranks recorded (%3): the others run as rank %3 does</source>
        <translation>记录了 %2 个 rank 中的 %1 个（%3）：其余 rank 按 rank %3 的方式运行</translation>
    </message>
    <message>
        <source>%1 of %2 ranks recorded (%3): each other rank m runs as recorded rank number m mod %1 does</source>
        <translation>记录了 %2 个 rank 中的 %1 个（%3）：其余每个 rank m 按第 m mod %1 个已记录 rank 的方式运行</translation>
    </message>
    <message>
        <source>%1 collectives carry no message size (recent PyTorch versions record it with record_param_comms): they count 0 bytes and the network model prices them as latency only</source>
        <translation>%1 个集合通信没有消息大小（较新的 PyTorch 版本通过 record_param_comms 记录）：按 0 字节计，网络模型只按延迟计价</translation>
    </message>
    <message>
        <source>%1 collectives name a group smaller than the world without its ranks: taken as all ranks</source>
        <translation>%1 个集合通信指定了小于全体的组却未列出其 rank：按全部 rank 处理</translation>
    </message>
    <message>
        <source>device compute overlaps itself on more than one stream for up to %1 us per rank; the workload runs compute on one stream, so a replay serialises it</source>
        <translation>设备计算在多个流上相互重叠，每个 rank 最多 %1 微秒；工作负载只在一个流上计算，因此重放会将其串行化</translation>
    </message>
    <message>
        <source>the module is already partitioned (it has %1 collectives or no shardings); the mesh %2 is not used</source>
        <translation>模块已经分区（它有 %1 个集合通信或没有分片）；不使用网格 %2</translation>
    </message>
    <message>
        <source>the module carries %1 sharding annotations but no collectives and declares no mesh; lowered as one device&apos;s view of the whole program (give --mesh to partition it)</source>
        <translation>模块带有 %1 个分片注解，但没有集合通信，也未声明网格；按单个设备看到的整个程序降级（用 --mesh 对其分区）</translation>
    </message>
    <message>
        <source>HybridEP&apos;s NVLink domain of %1 ranks is wider than the cluster&apos;s scale-up dimension of %2 ranks: its in-domain hop crosses the network here</source>
        <translation>HybridEP 的 NVLink 域（%1 个 rank）大于集群的纵向扩展维度（%2 个 rank）：其域内一跳在此经过网络</translation>
    </message>
    <message>
        <source>partitioned by flint for mesh %1 (collectives inserted: %2)</source>
        <translation>由 flint 按网格 %1 分区（插入的集合通信：%2）</translation>
    </message>
    <message>
        <source>%1, %2 rank: measured step %3</source>
        <translation>%1，%2 个 rank：实测步骤 %3</translation>
    </message>
    <message>
        <source>%1, %2 ranks: measured step %3</source>
        <translation>%1，%2 个 rank：实测步骤 %3</translation>
    </message>
    <message>
        <source>%1, %2 rank, %4: measured step %3</source>
        <translation>%1，%2 个 rank，%4：实测步骤 %3</translation>
    </message>
    <message>
        <source>%1, %2 ranks, %4: measured step %3</source>
        <translation>%1，%2 个 rank，%4：实测步骤 %3</translation>
    </message>
    <message>
        <source>%1, %2 rank, no step markers: the whole trace: measured step %3</source>
        <translation>%1，%2 个 rank，无步骤标记：整个跟踪：实测步骤 %3</translation>
    </message>
    <message>
        <source>%1, %2 ranks, no step markers: the whole trace: measured step %3</source>
        <translation>%1，%2 个 rank，无步骤标记：整个跟踪：实测步骤 %3</translation>
    </message>
    <message>
        <source>not SPMD-partitioned by the compiler: partitioned by flint for mesh %1 (collectives inserted: %2)</source>
        <translation>未由编译器进行 SPMD 分区：由 flint 按网格 %1 分区（插入的集合通信：%2）</translation>
    </message>
    <message>
        <source>a per-device program (shapes and collectives as written: partitioned by the compiler or written per device)</source>
        <translation>逐设备程序（形状和集合通信按原样：由编译器分区或按设备编写）</translation>
    </message>
    <message>
        <source> (%1 instructions)</source>
        <translation>（%1 条指令）</translation>
    </message>
    <message>
        <source>computation &apos;%1&apos; calls itself; its recursive use is costed as 0</source>
        <translation>计算 &apos;%1&apos; 调用自身；其递归使用按 0 计价</translation>
    </message>
    <message>
        <source>opcode &apos;%1&apos; is unknown to the cost model; costed by its bytes only</source>
        <translation>代价模型不认识操作码 &apos;%1&apos;；仅按其字节数计价</translation>
    </message>
    <message>
        <source>convolution dim_labels &apos;%1&apos; not understood; costed by its bytes only</source>
        <translation>无法理解卷积 dim_labels &apos;%1&apos;；仅按其字节数计价</translation>
    </message>
    <message>
        <source>computation &apos;%1&apos; fuses itself</source>
        <translation>计算 &apos;%1&apos; 融合了自身</translation>
    </message>
    <message>
        <source>fusion without a fused computation; costed by its bytes only</source>
        <translation>融合没有被融合的计算；仅按其字节数计价</translation>
    </message>
    <message>
        <source>custom-call target &apos;%1&apos; is unknown; costed by its bytes only</source>
        <translation>custom-call 目标 &apos;%1&apos; 未知；仅按其字节数计价</translation>
    </message>
    <message>
        <source>custom-call &apos;%1&apos; has no dot_dimension_numbers in its backend_config; assumed [batch..., m, k] x [batch..., k, n]</source>
        <translation>custom-call &apos;%1&apos; 的 backend_config 中没有 dot_dimension_numbers；按 [batch..., m, k] x [batch..., k, n] 假定</translation>
    </message>
    <message>
        <source>custom-call &apos;%1&apos; has dim_labels &apos;%2&apos; that are not understood; costed by its bytes only</source>
        <translation>custom-call &apos;%1&apos; 的 dim_labels &apos;%2&apos; 无法理解；仅按其字节数计价</translation>
    </message>
    <message>
        <source>custom-call &apos;%1&apos;: attention shapes not understood; costed by its bytes only</source>
        <translation>custom-call &apos;%1&apos;：无法理解注意力形状；仅按其字节数计价</translation>
    </message>
    <message>
        <source>custom-call &apos;%1&apos;: attention sizes not found in backend_config or operands; costed by its bytes only</source>
        <translation>custom-call &apos;%1&apos;：在 backend_config 和操作数中都找不到注意力尺寸；仅按其字节数计价</translation>
    </message>
    <message>
        <source>the module&apos;s mhlo.sharding tilings do not nest into one device mesh; they are ignored</source>
        <translation>模块的 mhlo.sharding 切分无法嵌套成一个设备网格；予以忽略</translation>
    </message>
    <message>
        <source>mhlo.sharding &quot;%1&quot; (line %2) cannot be expressed on mesh %3; the value is taken as replicated</source>
        <translation>mhlo.sharding &quot;%1&quot;（第 %2 行）无法在网格 %3 上表示；该值按复制处理</translation>
    </message>
    <message>
        <source>mhlo.sharding &quot;%1&quot; cannot be expressed on mesh %3; the value is taken as replicated</source>
        <translation>mhlo.sharding &quot;%1&quot; 无法在网格 %3 上表示；该值按复制处理</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not supported by the MLIR frontend; costed by its bytes only (first at line %2)</source>
        <translation>MLIR 前端不支持 &apos;%1&apos;；仅按其字节数计价（首次出现在第 %2 行）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not supported by the MLIR frontend; costed by its bytes only</source>
        <translation>MLIR 前端不支持 &apos;%1&apos;；仅按其字节数计价</translation>
    </message>
    <message>
        <source>sharding %1 is not understood; the value is taken as unannotated</source>
        <translation>无法理解分片 %1；该值按无注解处理</translation>
    </message>
    <message>
        <source>a partially manual sharding (last_tile_dims with manual) is taken as manual on every axis</source>
        <translation>部分手动分片（last_tile_dims 带 manual）在每个轴上都按手动处理</translation>
    </message>
    <message>
        <source>a maximal sharding (one device computes the value) is taken as replicated</source>
        <translation>maximal 分片（由一个设备计算该值）按复制处理</translation>
    </message>
    <message>
        <source>a GSPMD tiling without a Shardy sharding on a mesh with device_ids is taken as unannotated</source>
        <translation>在带 device_ids 的网格上，没有 Shardy 分片的 GSPMD 切分按无注解处理</translation>
    </message>
    <message>
        <source>sharding %1 cannot be expressed on mesh %2; the value is taken as unannotated</source>
        <translation>分片 %1 无法在网格 %2 上表示；该值按无注解处理</translation>
    </message>
    <message>
        <source>%1 cannot be named on the mesh; that dimension is taken as replicated</source>
        <translation>%1 无法在网格上命名；该维度按复制处理</translation>
    </message>
    <message>
        <source>a tuple sharding of %1 elements for %2 values is ignored</source>
        <translation>%2 个值上的 %1 元素元组分片被忽略</translation>
    </message>
    <message>
        <source>a resharded value: dimension %2 of size %3 is padded to %4 to split into %5 shards on mesh %6</source>
        <translation>一个重新分片的值：大小为 %3 的维度 %2 被填充到 %4，以便在网格 %6 上切成 %5 个分片</translation>
    </message>
    <message>
        <source>%1: dimension %2 of size %3 is padded to %4 to split into %5 shards on mesh %6</source>
        <translation>%1：大小为 %3 的维度 %2 被填充到 %4，以便在网格 %6 上切成 %5 个分片</translation>
    </message>
    <message>
        <source>%1: mesh axis &apos;%2&apos; is not in mesh %3; ignored</source>
        <translation>%1：网格轴 &apos;%2&apos; 不在网格 %3 中；已忽略</translation>
    </message>
    <message>
        <source>the manual region&apos;s local shape %1 is not the shard %2 of the global value on mesh %3; the region runs as written</source>
        <translation>手动区域的本地形状 %1 不是网格 %3 上全局值的分片 %2；该区域按原样运行</translation>
    </message>
    <message>
        <source>the manual region returns %1 per device, not the shard %2 of %3 on mesh %4</source>
        <translation>手动区域每个设备返回 %1，而不是网格 %4 上 %3 的分片 %2</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not partitioned (its operands are gathered and it runs as one opaque op)</source>
        <translation>&apos;%1&apos; 不做分区（其操作数被收集，作为一个不透明算子运行）</translation>
    </message>
    <message>
        <source>CustomSPMDPartitioning: the custom partitioner is not run; the call takes its operands&apos; shards as laid out and its result as annotated</source>
        <translation>CustomSPMDPartitioning：不运行自定义分区器；该调用按现有布局取其操作数的分片，结果按注解处理</translation>
    </message>
    <message>
        <source>CustomSPMDPartitioning: the custom partitioner is not run; the call takes its operands&apos; shards as laid out and its result laid out as its first operand</source>
        <translation>CustomSPMDPartitioning：不运行自定义分区器；该调用按现有布局取其操作数的分片，结果按其第一个操作数的布局</translation>
    </message>
    <message>
        <source>reshape %1 -&gt; %2: dimension %3 sharded over %4 does not map onto a result dimension that splits as evenly; it is all-gathered first</source>
        <translation>reshape %1 -&gt; %2：按 %4 分片的维度 %3 无法映射到能同样均匀切分的结果维度；先对其做 all-gather</translation>
    </message>
    <message>
        <source>%1 byte-identical to an earlier rank&apos;s</source>
        <translation>%1 个与之前某个 rank 的逐字节相同</translation>
    </message>
    <message>
        <source>%1 equal to an earlier rank&apos;s but for process-group names</source>
        <translation>%1 个除进程组名外与之前某个 rank 的相同</translation>
    </message>
    <message>
        <source>%1 the same ops at other recorded times</source>
        <translation>%1 个算子相同但记录时间不同</translation>
    </message>
    <message>
        <source>%1 rank files hold %2 distinct program (</source>
        <translation>%1 个 rank 文件包含 %2 个不同程序（</translation>
    </message>
    <message>
        <source>%1 rank files hold %2 distinct programs (</source>
        <translation>%1 个 rank 文件包含 %2 个不同程序（</translation>
    </message>
    <message>
        <source>): each is held once, and ranks shown to behave alike are simulated once</source>
        <translation>）：每个只保存一次，已证明行为相同的 rank 只模拟一次</translation>
    </message>
    <message>
        <source>; a rank with recorded times of its own keeps them and is simulated with them</source>
        <translation>；有自己记录时间的 rank 保留这些时间并据此模拟</translation>
    </message>
    <message>
        <source>generated as StableHLO blocks, partitioned for the stage mesh %1 and composed into %2 pipeline stage program (docs/models.md)</source>
        <translation>以 StableHLO 块生成，按阶段网格 %1 划分，并组合为 %2 个流水线阶段程序（docs/models.md）</translation>
    </message>
    <message>
        <source>generated as StableHLO blocks, partitioned for the stage mesh %1 and composed into %2 pipeline stage programs (docs/models.md)</source>
        <translation>以 StableHLO 块生成，按阶段网格 %1 划分，并组合为 %2 个流水线阶段程序（docs/models.md）</translation>
    </message>
    <message>
        <source>halving-doubling needs a power-of-two group; ring used</source>
        <translation>halving-doubling 需要 2 的幂大小的组；改用 ring</translation>
    </message>
    <message>
        <source>ASTRA-sim runs a whole-chunk tree all-reduce in every phase on a tree dimension</source>
        <translation>ASTRA-sim 在树形维度的每个阶段都对整个分块运行树形 all-reduce</translation>
    </message>
    <message>
        <source>double binary tree is an all-reduce algorithm; ring used</source>
        <translation>double binary tree 是 all-reduce 算法；改用 ring</translation>
    </message>
    <message>
        <source>group is not a sub-grid of the topology: one logical ring over its ranks</source>
        <translation>该组不是拓扑的子网格：在其 rank 上组成一个逻辑环</translation>
    </message>
    <message>
        <source>plus, where transfers of this rank overlap it on a link and together ask for more than the link carries, the excess of that demand over its interval (links shared by overlapping transfers; the slowest participant&apos;s)</source>
        <translation>另外，若本 rank 的其他传输在某条链路上与其重叠且合计需求超过链路容量，则加上该需求在其区间内的超出部分（重叠传输共享链路；取最慢参与者的值）</translation>
    </message>
    <message>
        <source>reduce-scatter %1, then its mirror all-gather, %2</source>
        <translation>reduce-scatter %1，然后是其镜像 all-gather，%2</translation>
    </message>
    <message>
        <source>see docs/estimator.md, rooted and other collectives</source>
        <translation>见 docs/estimator.md 中有根及其他集合通信</translation>
    </message>
    <message>
        <source>%1 of %2 bytes per rank over %3 members, %4 cost model</source>
        <translation>%1，每个 rank %2 字节，%3 个成员，%4 代价模型</translation>
    </message>
    <message>
        <source>%1 chunk(s) of %2 bytes, pipelined through %3 phase(s), staged per topology dimension</source>
        <translation>%1 个 %2 字节的分块，流水经过 %3 个阶段，按拓扑维度分级</translation>
    </message>
    <message>
        <source>%1 chunk(s) of %2 bytes, pipelined through %3 phase(s)</source>
        <translation>%1 个 %2 字节的分块，流水经过 %3 个阶段</translation>
    </message>
    <message>
        <source>phase %1: %2 %3 on a flat logical ring, n = %4, c = %5 bytes: t = </source>
        <translation>阶段 %1：%2 %3，扁平逻辑环，n = %4，c = %5 字节：t = </translation>
    </message>
    <message>
        <source> = %1 per chunk</source>
        <translation> = 每个分块 %1</translation>
    </message>
    <message>
        <source>NCCL&apos;s %1 protocol, the fastest of LL, LL128 and Simple: its ring latency %2 once (a base and a latency per ring step), the phases above at its share of the bandwidth and without per-hop latency</source>
        <translation>NCCL 的 %1 协议，LL、LL128 和 Simple 中最快者：其环延迟 %2 计一次（基础延迟加每个环步骤的延迟），上述各阶段按其带宽份额计算，不计每跳延迟</translation>
    </message>
    <message>
        <source>%1; %2; ED endpoint delay (docs/estimator.md)</source>
        <translation>%1；%2；ED 为端点延迟（docs/estimator.md）</translation>
    </message>
    <message>
        <source>duration = %1</source>
        <translation>时长 = %1</translation>
    </message>
    <message>
        <source>send of %1 bytes between ranks %2 and %3</source>
        <translation>在 rank %2 与 %3 之间发送 %1 字节</translation>
    </message>
    <message>
        <source>recv of %1 bytes between ranks %2 and %3</source>
        <translation>在 rank %2 与 %3 之间接收 %1 字节</translation>
    </message>
    <message>
        <source>t = %1 = %2</source>
        <translation>t = %1 = %2</translation>
    </message>
    <message>
        <source>recorded duration: %1</source>
        <translation>记录的时长：%1</translation>
    </message>
    <message>
        <source>roofline: %1</source>
        <translation>屋顶线模型：%1</translation>
    </message>
    <message>
        <source>fused attention, backward pass: eff_flop is the measured throughput of %1 on %2</source>
        <translation>融合注意力，反向传播：eff_flop 为 %1 在 %2 上的实测吞吐</translation>
    </message>
    <message>
        <source>fused attention, forward pass: eff_flop is the measured throughput of %1 on %2</source>
        <translation>融合注意力，前向传播：eff_flop 为 %1 在 %2 上的实测吞吐</translation>
    </message>
    <message>
        <source>GEMM of M %1 x N %2 x K %3: eff_flop is %4&apos;s measured throughput at that shape (%5 TFLOP/s)</source>
        <translation>GEMM，M %1 x N %2 x K %3：eff_flop 为 %4 在该形状下的实测吞吐（%5 TFLOP/s）</translation>
    </message>
    <message>
        <source>eff_flop includes x %1: the throughput %2 sustains power-saturated, against the burst figure of short benchmarks at the boost clock</source>
        <translation>eff_flop 含系数 x %1：%2 在功耗饱和时可持续的吞吐，相对于短基准测试在加速频率下的峰值</translation>
    </message>
    <message>
        <source>no FLOPs and no memory traffic: the op takes no time</source>
        <translation>无 FLOP 且无内存访问：该操作不耗时</translation>
    </message>
    <message>
        <source>= max(%1, %2) + %3 = %4 (compute-bound)</source>
        <translation>= max(%1, %2) + %3 = %4（计算受限）</translation>
    </message>
    <message>
        <source>= max(%1, %2) + %3 = %4 (memory-bound)</source>
        <translation>= max(%1, %2) + %3 = %4（内存受限）</translation>
    </message>
    <message>
        <source>plus %1% of the time communication of this rank runs beside it (SMs and memory bandwidth shared with the communication kernels)</source>
        <translation>另加本 rank 的通信与其并行运行时间的 %1%（SM 和内存带宽与通信内核共享）</translation>
    </message>
    <message>
        <source>the trace names no process group for its collectives, and the recorded ranks do not issue them in the same order: paired by end time instead. %1 collectives end together on every recorded rank; %2 (counted on each rank) have no partner on another recorded rank and run on a group of their rank and the unrecorded ranks that copy it</source>
        <translation>轨迹未记录其集合通信所属的进程组，且各已记录 rank 发起它们的顺序不同：改为按结束时间配对。%1 个集合通信在每个已记录 rank 上同时结束；%2 个（按每个 rank 计数）在其他已记录 rank 上没有对应项，在由其 rank 和复制该 rank 的未记录 rank 组成的组上运行</translation>
    </message>
    <message>
        <source>the run was measured on TPUs, the estimate is for %1 on %2: choose a TPU cluster (%3, or a network YAML with %4)</source>
        <translation>该运行在 TPU 上测得，而估算针对 %2 上的 %1：请选择 TPU 集群（%3，或带 %4 的网络 YAML）</translation>
    </message>
    <message>
        <source>the run was measured on %1, the estimate prices modelled work on %2 (%3): %4 (or a cluster built around it) compares like with like</source>
        <translation>该运行在 %1 上测得，估算按 %2（%3）计算建模部分：使用 %4（或围绕它构建的集群）才能同类比较</translation>
    </message>
    <message>
        <source>phase %1: %2 %3 on dimension %4 (%5, %6 GB/s, %7 ns), n = %8, c = %9 bytes: t = </source>
        <translation>阶段 %1：%2 %3，维度 %4（%5，%6 GB/s，%7 ns），n = %8，c = %9 字节：t = </translation>
    </message>
    <message>
        <source>%1; %2: the reduction&apos;s excess over its transfer, as NCCL&apos;s kernels reduce while they stream; ED endpoint delay (docs/estimator.md)</source>
        <translation>%1；%2：归约超出其传输的部分（NCCL 内核在流式传输时归约）；ED 为端点延迟（docs/estimator.md）</translation>
    </message>
</context>
<context>
    <name>NetworkNames</name>
    <message>
        <source>ring</source>
        <translation>环</translation>
    </message>
    <message>
        <source>switch</source>
        <translation>交换机</translation>
    </message>
    <message>
        <source>fully connected</source>
        <translation>全连接</translation>
    </message>
    <message>
        <source>direct</source>
        <translation>直接</translation>
    </message>
    <message>
        <source>halving-doubling</source>
        <translation>减半-加倍</translation>
    </message>
    <message>
        <source>double binary tree</source>
        <translation>双二叉树</translation>
    </message>
</context>
<context>
    <name>flint::app::DetailsPanel</name>
    <message numerus="yes">
        <source>Its transfers are outlined in the Communication tab (%n cell(s)).</source>
        <translation>
            <numerusform>其传输已在“通信”标签页中标出（%n 个单元格）。</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2) on rank %3&lt;br&gt;</source>
        <translation>rank %3 上的 &lt;b&gt;%1&lt;/b&gt;（%2）&lt;br&gt;</translation>
    </message>
    <message>
        <source>scope &lt;i&gt;%1&lt;/i&gt;&lt;br&gt;</source>
        <translation>作用域 &lt;i&gt;%1&lt;/i&gt;&lt;br&gt;</translation>
    </message>
    <message>
        <source>result %1[%2]&lt;br&gt;</source>
        <translation>结果 %1[%2]&lt;br&gt;</translation>
    </message>
    <message>
        <source>%1 FLOP, %2 read, %3 written&lt;br&gt;</source>
        <translation>%1 FLOP，读取 %2，写入 %3&lt;br&gt;</translation>
    </message>
    <message>
        <source>%1 per rank, group of %2: %3&lt;br&gt;</source>
        <translation>每个 rank %1，%2 个成员的组：%3&lt;br&gt;</translation>
    </message>
    <message>
        <source>runs %1 → %2 (%3)%4&lt;br&gt;</source>
        <translation>运行 %1 → %2（%3）%4&lt;br&gt;</translation>
    </message>
    <message>
        <source>, after waiting %1 for its peers</source>
        <translation>，此前等待对端 %1</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;Estimated time %1&lt;/b&gt;, how:</source>
        <translation>&lt;br&gt;&lt;b&gt;估算时间 %1&lt;/b&gt;，计算过程：</translation>
    </message>
    <message>
        <source>&lt;br&gt;No estimate for this op: %1</source>
        <translation>&lt;br&gt;该算子没有估算：%1</translation>
    </message>
    <message>
        <source>&lt;i&gt;View &gt; Animate selected collective (Ctrl+Shift+A) plays it step by step.&lt;/i&gt;&lt;br&gt;</source>
        <translation>&lt;i&gt;视图 &gt; 动画演示所选集合通信（Ctrl+Shift+A）可逐步播放。&lt;/i&gt;&lt;br&gt;</translation>
    </message>
    <message>
        <source>The previous estimate: the current configuration is being estimated</source>
        <translation>上一次的估算：当前配置正在估算中</translation>
    </message>
    <message>
        <source>In this estimate it took %1: %2 more than alone, from what ran beside it (the last line above).&lt;br&gt;</source>
        <translation>在本次估算中耗时 %1：比单独运行多 %2，来自与其并行运行的操作（见上面最后一行）。&lt;br&gt;</translation>
    </message>
</context>
<context>
    <name>flint::app::ExampleGallery</name>
    <message>
        <source>%1 (licence: %2)</source>
        <translation>%1（许可证：%2）</translation>
    </message>
    <message>
        <source>Chakra execution trace</source>
        <translation>Chakra 执行跟踪</translation>
    </message>
    <message>
        <source>XLA HLO module</source>
        <translation>XLA HLO 模块</translation>
    </message>
    <message>
        <source>Example gallery</source>
        <translation>示例库</translation>
    </message>
    <message>
        <source>Bundled workloads, as real compilers and tools wrote them:</source>
        <translation>随附的工作负载，均由真实的编译器和工具生成：</translation>
    </message>
    <message>
        <source>No bundled examples were found next to this program.</source>
        <translation>在本程序旁未找到随附的示例。</translation>
    </message>
</context>
<context>
    <name>flint::app::ExportActions</name>
    <message>
        <source>Export a Perfetto trace</source>
        <translation>导出 Perfetto 跟踪</translation>
    </message>
    <message>
        <source>Chrome/Perfetto trace (*.json)</source>
        <translation>Chrome/Perfetto 跟踪 (*.json)</translation>
    </message>
    <message>
        <source>Writing %1…</source>
        <translation>正在写入 %1…</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Export Chakra traces: choose a folder and a file prefix</source>
        <translation>导出 Chakra 跟踪：选择文件夹和文件名前缀</translation>
    </message>
    <message>
        <source>Chakra trace prefix (PREFIX.RANK.et and PREFIX.json)</source>
        <translation>Chakra 跟踪前缀 (PREFIX.RANK.et 和 PREFIX.json)</translation>
    </message>
    <message>
        <source>Export the per-rank breakdown</source>
        <translation>导出各 rank 的时间分解</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Export the current view</source>
        <translation>导出当前视图</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>Export the configurations tried</source>
        <translation>导出已尝试的配置</translation>
    </message>
</context>
<context>
    <name>flint::app::History</name>
    <message>
        <source>%1 (edited)</source>
        <translation>%1（已编辑）</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>%1
on %2</source>
        <translation>%1
在 %2 上</translation>
    </message>
    <message>
        <source>Configuration</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>Tokens/s/GPU</source>
        <translation>token/s/GPU</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>vs baseline</source>
        <translation>相对基线</translation>
    </message>
    <message>
        <source>MFU %1 %</source>
        <translation>MFU %1 %</translation>
    </message>
    <message>
        <source>no ZeRO</source>
        <translation>无 ZeRO</translation>
    </message>
    <message>
        <source>global batch %1</source>
        <translation>全局批大小 %1</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 GB/s</source>
        <translation>%1 · %2 · %3 GB/s</translation>
    </message>
    <message>
        <source>The baseline runs on %1 GPUs, this one on %2: the step time compares the whole job.</source>
        <translation>基线运行在 %1 个 GPU 上，此配置运行在 %2 个 GPU 上：单步时间比较的是整个作业。</translation>
    </message>
    <message>
        <source>Per GPU, tokens/s change by %1 %.</source>
        <translation>每个 GPU 的 token/s 变化 %1 %。</translation>
    </message>
</context>
<context>
    <name>flint::app::HistoryPanel</name>
    <message>
        <source>Re-open</source>
        <translation>重新打开</translation>
    </message>
    <message>
        <source>Show this configuration again (Ctrl+Z goes back)</source>
        <translation>再次显示此配置（Ctrl+Z 可返回）</translation>
    </message>
    <message>
        <source>Pin as baseline</source>
        <translation>固定为基线</translation>
    </message>
    <message>
        <source>Compare every estimate with this one</source>
        <translation>将每次估算与此比较</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Unpin baseline</source>
        <translation>取消固定基线</translation>
    </message>
    <message>
        <source>This row keeps its figures, not its whole estimate: it is estimated again (the configuration shown stays), then pinned</source>
        <translation>此行只保留数值，未保留完整估算：将重新估算（当前显示的配置不变），然后固定</translation>
    </message>
</context>
<context>
    <name>flint::app::MainWindow</name>
    <message>
        <source>Flint Explorer</source>
        <translation>Flint Explorer</translation>
    </message>
    <message>
        <source>rank </source>
        <translation>rank </translation>
    </message>
    <message>
        <source>The rank whose graph is shown</source>
        <translation>显示其计算图的 rank</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>计算图</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>What if</source>
        <translation>假设分析</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a workload</source>
        <translation>打开工作负载</translation>
    </message>
    <message>
        <source>Open trace &amp;folder…</source>
        <translation>打开跟踪文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>Example &amp;gallery…</source>
        <translation>示例库(&amp;G)…</translation>
    </message>
    <message>
        <source>&amp;Examples</source>
        <translation>示例(&amp;E)</translation>
    </message>
    <message>
        <source>Export &amp;Perfetto trace…</source>
        <translation>导出 Perfetto 跟踪(&amp;P)…</translation>
    </message>
    <message>
        <source>Export &amp;Chakra traces…</source>
        <translation>导出 Chakra 跟踪(&amp;C)…</translation>
    </message>
    <message>
        <source>Export view &amp;image…</source>
        <translation>导出视图图像(&amp;I)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>%1 — Flint Explorer</source>
        <translation>%1 — Flint Explorer</translation>
    </message>
    <message>
        <source>No op sends from these ranks to those</source>
        <translation>没有算子从这些 rank 发送到那些 rank</translation>
    </message>
    <message>
        <source>%1 moves %2 from rank %3 to ranks %4-%5 over the step</source>
        <translation>%1 在该步中从 rank %3 向 rank %4-%5 传输 %2</translation>
    </message>
    <message>
        <source>The previous workload and estimate are still shown.</source>
        <translation>仍显示之前的工作负载和估算。</translation>
    </message>
    <message>
        <source>Export breakdown as CS&amp;V…</source>
        <translation>将时间分解导出为 CSV(&amp;V)…</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Parallelism</source>
        <translation>并行</translation>
    </message>
    <message>
        <source>Open a model file</source>
        <translation>打开模型文件</translation>
    </message>
    <message>
        <source>Model files (*.txt *.model);;All files (*)</source>
        <translation>模型文件 (*.txt *.model);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot read the model %1</source>
        <translation>无法读取模型 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n errors since this box opened; the latest is shown. The previous workload and estimate are still shown.</source>
        <translation>
            <numerusform>此窗口打开后共出现 %n 个错误，显示的是最新一个。之前的工作负载和估算结果仍在显示。</numerusform>
        </translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Pin current estimate as baseline</source>
        <translation>将当前估算固定为基线(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Clear baseline</source>
        <translation>清除基线(&amp;C)</translation>
    </message>
    <message>
        <source>Last change</source>
        <translation>上次更改</translation>
    </message>
    <message>
        <source>Against baseline #%1</source>
        <translation>相对基线 #%1</translation>
    </message>
    <message>
        <source>&amp;Fit to window</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>&amp;About Flint Explorer</source>
        <translation>关于 Flint Explorer(&amp;A)</translation>
    </message>
    <message>
        <source>About Flint Explorer</source>
        <translation>关于 Flint Explorer</translation>
    </message>
    <message>
        <source>&lt;b&gt;Flint Explorer %1&lt;/b&gt;&lt;p&gt;Explore how a training or inference step of a large model behaves on a cluster you do not have: workload graphs from XLA HLO, StableHLO, Shardy and MLIR or built-in models, per-rank timelines estimated on a modelled cluster, Chakra traces for ASTRA-sim.&lt;/p&gt;&lt;p&gt;MIT licence. Qt %2.&lt;/p&gt;</source>
        <translation>&lt;b&gt;Flint Explorer %1&lt;/b&gt;&lt;p&gt;探索大模型的一个训练或推理步骤在您并不拥有的集群上的表现：来自 XLA HLO、StableHLO、Shardy 和 MLIR 或内置模型的工作负载图，在建模集群上估算的每个 rank 的时间线，以及供 ASTRA-sim 使用的 Chakra 轨迹。&lt;/p&gt;&lt;p&gt;MIT 许可证。Qt %2。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Undo the last change</source>
        <translation>撤销上一次更改</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>Pin the current estimate as the baseline</source>
        <translation>将当前估算固定为基线</translation>
    </message>
    <message>
        <source>Fit the graph, timeline or matrix to the window</source>
        <translation>使计算图、时间线或矩阵适应窗口</translation>
    </message>
    <message>
        <source>Find an op in the graph</source>
        <translation>在计算图中查找算子</translation>
    </message>
    <message>
        <source>Enter, F3</source>
        <translation>Enter、F3</translation>
    </message>
    <message>
        <source>Next match of the search</source>
        <translation>搜索的下一个匹配</translation>
    </message>
    <message>
        <source>Wheel, drag</source>
        <translation>滚轮、拖动</translation>
    </message>
    <message>
        <source>Zoom and pan the graph, the timeline and the matrix</source>
        <translation>缩放和平移计算图、时间线和矩阵</translation>
    </message>
    <message>
        <source>Double-click</source>
        <translation>双击</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Workloads and profiles (*.hlo *.hlo.gz *.txt *.txt.gz *.mlir *.et *.et.gz *.json *.json.gz);;All files (*)</source>
        <translation>工作负载与剖析文件 (*.hlo *.hlo.gz *.txt *.txt.gz *.mlir *.et *.et.gz *.json *.json.gz);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open a folder of Chakra rank files or profiler traces</source>
        <translation>打开 Chakra rank 文件或性能剖析跟踪所在的文件夹</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>Open a measured run</source>
        <translation>打开实测运行</translation>
    </message>
    <message>
        <source>Compare with a &amp;measured run…</source>
        <translation>与实测运行对比(&amp;M)…</translation>
    </message>
    <message>
        <source>Open a folder of profiler traces, one per rank</source>
        <translation>打开性能剖析跟踪文件夹（每个 rank 一个）</translation>
    </message>
    <message>
        <source>Compare with a measured run fol&amp;der…</source>
        <translation>与实测运行文件夹对比(&amp;D)…</translation>
    </message>
    <message>
        <source>Measured run %1, replayed as measured</source>
        <translation>实测运行 %1，按实测重放</translation>
    </message>
    <message>
        <source>Baseline #%1</source>
        <translation>基线 #%1</translation>
    </message>
    <message>
        <source>Measured runs: profiler traces, Chakra traces with recorded times (*.json *.json.gz *.et);;All files (*)</source>
        <translation>实测运行：性能分析跟踪、带记录时间的 Chakra 跟踪 (*.json *.json.gz *.et);;所有文件 (*)</translation>
    </message>
    <message>
        <source>%1 × %2 GB/s</source>
        <translation>%1 × %2 GB/s</translation>
    </message>
    <message>
        <source>Open a group in the graph; zoom onto a cell&apos;s group in the matrix; re-open a row of the history or the sweep</source>
        <translation>在图中展开一个分组；在矩阵中缩放到单元格所属的分组；重新打开历史记录或扫描中的一行</translation>
    </message>
    <message numerus="yes">
        <source>Estimated %Ln rank(s): step time %1</source>
        <translation>
            <numerusform>已估算 %Ln 个 rank：步时 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Animate selected collective…</source>
        <translation>动画演示所选集合通信(&amp;A)…</translation>
    </message>
    <message>
        <source>Play the selected collective step by step</source>
        <translation>逐步播放所选集合通信</translation>
    </message>
    <message>
        <source>Select a collective first (in the timeline, the graph or the Ops table).</source>
        <translation>请先选择一个集合通信（在时间线、计算图或算子表中）。</translation>
    </message>
    <message>
        <source>This collective has one member on this cluster: nothing moves.</source>
        <translation>该集合通信在此集群上只有一个成员：没有数据传输。</translation>
    </message>
    <message>
        <source>%1 on rank %2</source>
        <translation>rank %2 上的 %1</translation>
    </message>
    <message>
        <source>&amp;Pipeline schedule…</source>
        <translation>流水线调度(&amp;P)…</translation>
    </message>
    <message>
        <source>Play the built-in model&apos;s pipeline schedule</source>
        <translation>播放内置模型的流水线调度</translation>
    </message>
    <message>
        <source>The pipeline schedule is shown for a built-in model trained with PP &gt; 1.</source>
        <translation>仅对以 PP &gt; 1 训练的内置模型显示流水线调度。</translation>
    </message>
    <message>
        <source>&amp;Network utilisation…</source>
        <translation>网络利用率(&amp;N)…</translation>
    </message>
    <message>
        <source>Play how busy the network&apos;s links are over the step</source>
        <translation>播放网络链路在整个步骤中的繁忙程度</translation>
    </message>
    <message>
        <source>The network&apos;s utilisation is shown once a step has been estimated.</source>
        <translation>估算出一个步骤后才会显示网络利用率。</translation>
    </message>
    <message>
        <source>Shift+wheel</source>
        <translation>Shift+滚轮</translation>
    </message>
    <message>
        <source>Pan the timeline along the step</source>
        <translation>沿单步平移时间线</translation>
    </message>
    <message>
        <source>Shift+drag</source>
        <translation>Shift+拖动</translation>
    </message>
    <message>
        <source>Select a time range in the timeline (its length is shown)</source>
        <translation>在时间线中选择时间范围（显示其长度）</translation>
    </message>
</context>
<context>
    <name>flint::app::Session</name>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Estimating on %1…</source>
        <translation>正在基于 %1 估算…</translation>
    </message>
    <message>
        <source>Cannot open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <source>Writing Chakra traces %1…</source>
        <translation>正在写入 Chakra 跟踪 %1…</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n file(s) for %1</source>
        <translation>
            <numerusform>已为 %1 写入 %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot write the Chakra traces %1</source>
        <translation>无法写入 Chakra 跟踪 %1</translation>
    </message>
    <message>
        <source>Cannot estimate this workload on %1</source>
        <translation>无法在 %1 上估算该工作负载</translation>
    </message>
    <message>
        <source>Compiling %1…</source>
        <translation>正在编译 %1…</translation>
    </message>
    <message>
        <source>Cannot compile %1</source>
        <translation>无法编译 %1</translation>
    </message>
    <message>
        <source>Built-in models need the MLIR frontend</source>
        <translation>内置模型需要 MLIR 前端</translation>
    </message>
    <message>
        <source>This build has no MLIR frontend (FLINT_BUILD_MLIR=OFF), which built-in models compile through.</source>
        <translation>此构建没有 MLIR 前端（FLINT_BUILD_MLIR=OFF），而内置模型要通过它编译。</translation>
    </message>
    <message>
        <source>strategy %1</source>
        <translation>策略 %1</translation>
    </message>
    <message>
        <source>open %1</source>
        <translation>打开 %1</translation>
    </message>
    <message>
        <source>network edit</source>
        <translation>网络编辑</translation>
    </message>
    <message>
        <source>cluster %1</source>
        <translation>集群 %1</translation>
    </message>
    <message>
        <source>Reading the measured run %1…</source>
        <translation>正在读取实测运行 %1…</translation>
    </message>
    <message>
        <source>Cannot read the measured run</source>
        <translation>无法读取实测运行</translation>
    </message>
    <message>
        <source>Comparing with the measured run…</source>
        <translation>正在与实测运行对比…</translation>
    </message>
    <message>
        <source>The measured run has %1 ranks and this workload %2: compare a workload with a run of the same size.</source>
        <translation>实测运行有 %1 个 rank，而此工作负载有 %2 个：请将工作负载与相同规模的运行对比。</translation>
    </message>
    <message>
        <source>Estimating %1 as the baseline…</source>
        <translation>正在估算 %1 作为基线…</translation>
    </message>
    <message>
        <source>Cannot estimate %1</source>
        <translation>无法估算 %1</translation>
    </message>
</context>
<context>
    <name>flint::app::StepSummary</name>
    <message>
        <source>&lt;b&gt;Step time %1&lt;/b&gt; on %2 (%3)&lt;br&gt;per rank: compute %4, exposed communication %5, idle %6</source>
        <translation>&lt;b&gt;单步时间 %1&lt;/b&gt;，系统 %2（%3）&lt;br&gt;每个 rank：计算 %4，未重叠通信 %5，空闲 %6</translation>
    </message>
    <message>
        <source>%1, edited</source>
        <translation>%1（已编辑）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step %1&lt;/b&gt;, %2 tokens/s (%3 per GPU)&lt;br&gt;MFU %4% (PaLM, of the BF16 peak)&lt;br&gt;pipeline bubble %5%, exposed communication %6% (busiest rank)&lt;br&gt;memory per GPU %7 of %8 GiB%9&lt;br&gt;&lt;small&gt;weights %10, gradients %11, optimizer %12, activations %13, buffers %14 GiB&lt;/small&gt;</source>
        <translation>&lt;b&gt;单步时间 %1&lt;/b&gt;，%2 token/s（每 GPU %3）&lt;br&gt;MFU %4%（PaLM 定义，相对 BF16 峰值）&lt;br&gt;流水线气泡 %5%，未重叠通信 %6%（最繁忙的 rank）&lt;br&gt;每 GPU 显存 %7 / %8 GiB%9&lt;br&gt;&lt;small&gt;权重 %10，梯度 %11，优化器 %12，激活 %13，缓冲区 %14 GiB&lt;/small&gt;</translation>
    </message>
    <message>
        <source> — &lt;span style=&apos;color:#c0392b&apos;&gt;&lt;b&gt;OUT OF MEMORY&lt;/b&gt;&lt;/span&gt;</source>
        <translation> — &lt;span style=&apos;color:#c0392b&apos;&gt;&lt;b&gt;显存不足&lt;/b&gt;&lt;/span&gt;</translation>
    </message>
    <message>
        <source>1 replica</source>
        <translation>1 个副本</translation>
    </message>
    <message>
        <source>%1 replicas</source>
        <translation>%1 个副本</translation>
    </message>
    <message>
        <source>1 partition</source>
        <translation>1 个分区</translation>
    </message>
    <message>
        <source>%1 partitions</source>
        <translation>%1 个分区</translation>
    </message>
    <message>
        <source>A built-in model: its parallelism, schedule, batch, recomputation and dtype are set in the Parallelism panel and recompiled on every change. Network, device and collective model are set here.</source>
        <translation>内置模型：并行方式、流水线调度、批大小、重计算和数据类型在“并行”面板中设置，每次修改都会重新编译。网络、设备和集合通信模型在此设置。</translation>
    </message>
    <message>
        <source>Fixed by this module: its global program and shardings, partitioned here for %1 devices (%2 x %3; another mesh with flint --mesh). Network, device and collective model are free to change.</source>
        <translation>由该模块固定：其全局程序和切分标注，此处按 %1 个设备切分（%2 x %3；其他网格请用 flint --mesh）。网络、设备和集合通信模型可以自由更改。</translation>
    </message>
    <message>
        <source>Fixed by this module: %1 devices (%2 x %3) and its parallelism, which XLA already partitioned. Network, device and collective model are free to change.</source>
        <translation>由该模块固定：%1 个设备（%2 x %3）及其并行方式，XLA 已完成切分。网络、设备和集合通信模型可以自由更改。</translation>
    </message>
    <message>
        <source>Warnings:&lt;br&gt;</source>
        <translation>警告：&lt;br&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: step %2 → %3, %4&lt;br&gt;compute %5, exposed comm %6, idle %7</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：单步 %2 → %3，%4&lt;br&gt;计算 %5，未重叠通信 %6，空闲 %7</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: step %2 → %3, %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：单步 %2 → %3，%4</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;compute includes %1 lost to communication running beside it (%2% of the overlap)&lt;/small&gt;</source>
        <translation>&lt;br&gt;&lt;small&gt;计算时间包含因同时运行的通信而损失的 %1（重叠时间的 %2%）&lt;/small&gt;</translation>
    </message>
    <message>
        <source>TP overlap</source>
        <translation>TP 重叠</translation>
    </message>
    <message numerus="yes">
        <source>interleaved 1F1B (%n chunk(s))</source>
        <translation>
            <numerusform>交错 1F1B（%n 个分块）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n microbatch(es) of %1</source>
        <translation>
            <numerusform>%n 个微批次，每个 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>no ZeRO</source>
        <translation>无 ZeRO</translation>
    </message>
    <message>
        <source> hybrid, shard groups of %1</source>
        <translation> 混合，分片组大小 %1</translation>
    </message>
    <message>
        <source> without reshard after forward</source>
        <translation> 前向后不重新分片</translation>
    </message>
    <message>
        <source>gradients reduced after the backward pass</source>
        <translation>反向传播结束后归约梯度</translation>
    </message>
    <message>
        <source>no recompute</source>
        <translation>无重计算</translation>
    </message>
    <message>
        <source>selective recompute</source>
        <translation>选择性重计算</translation>
    </message>
    <message>
        <source>full recompute</source>
        <translation>完全重计算</translation>
    </message>
    <message>
        <source>prefill, batch %1</source>
        <translation>预填充，批大小 %1</translation>
    </message>
    <message>
        <source>decode, batch %1</source>
        <translation>解码，批大小 %1</translation>
    </message>
    <message numerus="yes">
        <source> = %Ln rank(s)</source>
        <translation>
            <numerusform> = %Ln 个 rank</numerusform>
        </translation>
    </message>
    <message>
        <source>weights gathered during the forward pass</source>
        <translation>权重在前向传播期间收集</translation>
    </message>
    <message>
        <source>fused cross entropy</source>
        <translation>融合交叉熵</translation>
    </message>
    <message>
        <source>eager kernels</source>
        <translation>eager 内核</translation>
    </message>
    <message>
        <source>HybridEP dispatch (NVLink domains of %1)</source>
        <translation>HybridEP 分发（每个 NVLink 域 %1 个）</translation>
    </message>
    <message>
        <source>bf16 gradient reduction</source>
        <translation>bf16 梯度归约</translation>
    </message>
    <message>
        <source>FP8 current scaling</source>
        <translation>FP8 当前缩放</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;matmuls and attention at the throughput %1 sustains power-saturated (%2% of its burst figure in bf16)&lt;/small&gt;</source>
        <translation>&lt;br&gt;&lt;small&gt;矩阵乘法和注意力按 %1 在满功耗下可持续的吞吐量计算（bf16 峰值的 %2%）&lt;/small&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step %1&lt;/b&gt;, %2 tokens/s (%3 per GPU)&lt;br&gt;MFU %4% (PaLM, of the BF16 peak)&lt;br&gt;pipeline bubble %5%, exposed communication %6% (busiest rank)&lt;br&gt;memory per GPU %7 of %8 GiB%9&lt;br&gt;&lt;small&gt;weights %10, KV cache %11, working set %12 GiB&lt;/small&gt;</source>
        <translation>&lt;b&gt;单步时间 %1&lt;/b&gt;，%2 token/s（每 GPU %3）&lt;br&gt;MFU %4%（PaLM 定义，相对 BF16 峰值）&lt;br&gt;流水线气泡 %5%，未重叠通信 %6%（最繁忙的 rank）&lt;br&gt;每 GPU 显存 %7 / %8 GiB%9&lt;br&gt;&lt;small&gt;权重 %10，KV 缓存 %11，工作集 %12 GiB&lt;/small&gt;</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>The model from %1: its parallelism, schedule, batch, recomputation and dtype are set in the Parallelism panel and recompiled on every change. Network, device and collective model are set here.</source>
        <translation>来自 %1 的模型：其并行方式、调度、批量、重计算和数据类型在“并行”面板中设置，每次更改都会重新编译。网络、设备和集合通信模型在此设置。</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;idle includes %1 after the rank&apos;s last op, waiting for the slowest rank&lt;/small&gt;</source>
        <translation>&lt;br&gt;&lt;small&gt;空闲中有 %1 是 rank 最后一个算子之后等待最慢 rank 的时间&lt;/small&gt;</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Parallelism is fixed by the open module&lt;/b&gt; (%Ln rank(s), as partitioned). To explore strategies, choose a built-in model above or read a model with File…; it replaces the open file.</source>
        <translation>
            <numerusform>&lt;b&gt;并行方式由打开的模块决定&lt;/b&gt;（%Ln 个 rank，按其分区）。若要探索并行策略，请在上方选择内置模型，或用“文件…”读取模型；它将替换当前打开的文件。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Parallelism is fixed by the open trace&lt;/b&gt; (%Ln rank(s), as recorded). To explore strategies, choose a built-in model above or read a model with File…; it replaces the open file.</source>
        <translation>
            <numerusform>&lt;b&gt;并行方式由打开的跟踪决定&lt;/b&gt;（%Ln 个 rank，按其记录）。若要探索并行策略，请在上方选择内置模型，或用“文件…”读取模型；它将替换当前打开的文件。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Fixed by this trace: %Ln rank(s) and their communicator groups, as recorded. Network, device and collective model are free to change.</source>
        <translation>
            <numerusform>由该跟踪固定：%Ln 个 rank 及其通信组（按其记录）。网络、设备和集合通信模型可自由更改。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln rank(s)</source>
        <translation>
            <numerusform>%Ln 个 rank</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln op(s) on rank 0</source>
        <translation>
            <numerusform>rank 0 上 %Ln 个算子</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln communicator group(s)</source>
        <translation>
            <numerusform>%Ln 个通信组</numerusform>
        </translation>
    </message>
    <message>
        <source>, </source>
        <comment>between the items of a list (Chinese: a full-width comma)</comment>
        <translation>，</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;communication includes %1 lost to transfers beside it sharing their links&lt;/small&gt;</source>
        <translation>&lt;br&gt;&lt;small&gt;通信时间包含因同时运行的传输共享链路而损失的 %1&lt;/small&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;host gaps: %1 of the device waiting for its host, as measured (idle, or exposed communication where a collective ran)&lt;/small&gt;</source>
        <translation>&lt;br&gt;&lt;small&gt;主机间隙：设备等待主机的时间 %1（按测量值；计为空闲，若期间有集合通信则计为未重叠通信）&lt;/small&gt;</translation>
    </message>
    <message>
        <source>, FSDP2 copy-out</source>
        <translation>，FSDP2 拷出</translation>
    </message>
</context>
<context>
    <name>flint::app::SweepPage</name>
    <message>
        <source>TP</source>
        <translation>TP</translation>
    </message>
    <message>
        <source>PP</source>
        <translation>PP</translation>
    </message>
    <message>
        <source>DP</source>
        <translation>DP</translation>
    </message>
    <message>
        <source>Microbatch size</source>
        <translation>微批大小</translation>
    </message>
    <message>
        <source>Bandwidth scale</source>
        <translation>带宽倍数</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Run sweep</source>
        <translation>开始扫描</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Plot</source>
        <translation>绘制</translation>
    </message>
    <message>
        <source>Sweeps the model shown in the Parallelism panel; GPUs stay fixed when TP or PP change.</source>
        <translation>扫描“并行”面板中的模型；改变 TP 或 PP 时 GPU 数保持不变。</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>取值</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>token/s</translation>
    </message>
    <message>
        <source>Memory GiB</source>
        <translation>显存 GiB</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a positive number</source>
        <translation>“%1”不是正数</translation>
    </message>
    <message>
        <source>Open a built-in model first (Parallelism panel).</source>
        <translation>请先打开内置模型（“并行”面板）。</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>TP x PP x CP = %1 does not divide %2 GPUs</source>
        <translation>TP x PP x CP = %1 不能整除 %2 个 GPU</translation>
    </message>
    <message>
        <source>%1 of %2 points estimated</source>
        <translation>已估算 %1 / %2 个点</translation>
    </message>
    <message>
        <source>MFU (%)</source>
        <translation>MFU (%)</translation>
    </message>
    <message>
        <source>Step time (s)</source>
        <translation>单步时间 (s)</translation>
    </message>
    <message>
        <source>feasible</source>
        <translation>可行</translation>
    </message>
    <message>
        <source>invalid or out of memory</source>
        <translation>无效或显存不足</translation>
    </message>
    <message>
        <source>best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <source>%1: %2 against %3</source>
        <translation>%1：%2 随 %3 变化</translation>
    </message>
    <message>
        <source>step time</source>
        <translation>单步时间</translation>
    </message>
    <message numerus="yes">
        <source>Cancelled after %n point(s)</source>
        <translation>
            <numerusform>已在 %n 个点后取消</numerusform>
        </translation>
    </message>
    <message>
        <source>Sweeping %1…</source>
        <translation>正在扫描 %1…</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>The open file&apos;s parallelism is fixed, so there is no strategy to sweep: choose a built-in model in the Parallelism panel (or read a model file) to sweep one.</source>
        <translation>已打开文件的并行方式是固定的，没有可扫描的策略：请在“并行”面板中选择内置模型（或读取模型文件）后再扫描。</translation>
    </message>
    <message>
        <source>No sweep yet: choose a parameter and its values above, then Run sweep.&lt;br&gt;Each point re-estimates the model with that one value changed.</source>
        <translation>尚无扫描：在上方选择一个参数及其取值，然后点击“开始扫描”。&lt;br&gt;每个点都会在只改变该值的情况下重新估算模型。</translation>
    </message>
    <message>
        <source>Nothing to sweep: the open file fixes its parallelism.</source>
        <translation>无可扫描：打开的文件固定了其并行方式。</translation>
    </message>
    <message>
        <source>The plot shows the sweep around %1 on %2; the configuration has changed since: Run sweep to sweep the current one.</source>
        <translation>图中是围绕 %1（%2）的扫描；此后配置已更改：点击“开始扫描”以扫描当前配置。</translation>
    </message>
    <message>
        <source>Values to try, separated by commas, semicolons or spaces</source>
        <translation>要尝试的值，以逗号、分号或空格分隔</translation>
    </message>
</context>
<context>
    <name>flint::app::ValidationPage</name>
    <message>
        <source>only estimated</source>
        <translation>仅估计</translation>
    </message>
    <message>
        <source>Open measured run…</source>
        <translation>打开实测运行…</translation>
    </message>
    <message>
        <source>Stop comparing</source>
        <translation>停止对比</translation>
    </message>
    <message>
        <source>&lt;b&gt;Measured run&lt;/b&gt; %1: %2; ranks: %3</source>
        <translation>&lt;b&gt;实测运行&lt;/b&gt; %1：%2；rank 数：%3</translation>
    </message>
    <message>
        <source>Step time as measured</source>
        <translation>实测单步时间</translation>
    </message>
    <message>
        <source>Estimated (this workload on %1)</source>
        <translation>估计值（此工作负载在 %1 上）</translation>
    </message>
    <message>
        <source>Measured compute, modelled communication</source>
        <translation>实测计算，建模通信</translation>
    </message>
    <message>
        <source>Replayed as measured</source>
        <translation>按实测重放</translation>
    </message>
    <message>
        <source>Ops of rank %1; the device waited %2 for the host.</source>
        <translation>rank %1 的算子；设备等待主机 %2。</translation>
    </message>
    <message>
        <source>Collective time (ms)</source>
        <translation>集合通信时间 (ms)</translation>
    </message>
    <message>
        <source>collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>estimated</source>
        <translation>估计</translation>
    </message>
    <message>
        <source>Each point is a collective of the validated rank; on the line the estimate equals the measurement, above it the estimate is slower.</source>
        <translation>每个点是被验证 rank的一次集合通信；在直线上估计等于实测，在其上方估计更慢。</translation>
    </message>
    <message>
        <source>estimated = measured</source>
        <translation>估计 = 实测</translation>
    </message>
    <message>
        <source>; step: %1</source>
        <translation>；步：%1</translation>
    </message>
    <message>
        <source>A profile of a real run of this workload: PyTorch profiler traces (.json or .json.gz, one per rank, or a folder of them) or an XLA profiler trace (JAX, TensorFlow)</source>
        <translation>该工作负载一次真实运行的性能剖析：PyTorch profiler 跟踪（.json 或 .json.gz，每个 rank 一个，或包含它们的文件夹），或 XLA profiler 跟踪（JAX、TensorFlow）</translation>
    </message>
    <message>
        <source>Hold the estimate against what really ran: open a profile of a real run of this workload (PyTorch profiler traces, Kineto or legacy, NVIDIA or ROCm; XLA profiler traces of JAX or TensorFlow). The step time is then compared as measured, as estimated, with the run&apos;s measured compute and modelled communication, and replayed as measured; the ops are counted per category on both sides, the collectives paired by kind and order and the ops by name.</source>
        <translation>将估算与真实运行对照：打开该工作负载一次真实运行的性能剖析（PyTorch profiler 跟踪，Kineto 或旧格式，NVIDIA 或 ROCm；JAX 或 TensorFlow 的 XLA profiler 跟踪）。随后比较步时：实测值、估算值、使用实测计算时间并对通信建模的结果，以及按实测重放的结果；两侧按类别统计算子数量，集合通信按类型和顺序配对，算子按名称配对。</translation>
    </message>
    <message>
        <source>Collectives</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Ops by name</source>
        <translation>按名称的算子</translation>
    </message>
    <message>
        <source>Ops paired by name: an XLA trace names its ops by HLO instruction, as the module XLA dumped does; a PyTorch trace&apos;s kernels share no names with a compiler&apos;s workload.</source>
        <translation>按名称配对的算子：XLA 跟踪以 HLO 指令命名其算子，与 XLA 导出的模块一致；PyTorch 跟踪中的内核名称与编译器生成的工作负载没有共同之处。</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>only measured</source>
        <translation>仅实测</translation>
    </message>
    <message>
        <source>The workload is a measured run: its estimate already takes the measured compute, so the estimated rows with and without it agree.</source>
        <translation>该工作负载本身就是测量运行：其估算已采用测量的计算时间，因此有无测量计算的两行估算结果相同。</translation>
    </message>
    <message>
        <source>A collective&apos;s measured time is its kernel&apos;s on this rank, from its start: it includes waiting for the group&apos;s last member to arrive. The estimated time starts when all members are there.</source>
        <translation>集合通信的测量时间是其内核在此 rank 上从启动开始的时间：包含等待组内最后一个成员到达的时间。估算时间从所有成员到齐时开始。</translation>
    </message>
</context>
<context>
    <name>flint::app::ValidationTableModel</name>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>误差</translation>
    </message>
    <message>
        <source>Collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Measured
time</source>
        <translation>实测
时间</translation>
    </message>
    <message>
        <source>Estimated
time</source>
        <translation>估计
时间</translation>
    </message>
    <message>
        <source>Measured
size</source>
        <translation>实测
大小</translation>
    </message>
    <message>
        <source>Workload
size</source>
        <translation>工作负载中
的大小</translation>
    </message>
    <message>
        <source>The collective&apos;s number among those of its kind on this rank, in the order they ran (from 0)</source>
        <translation>该集合通信在本 rank 上同类集合通信中的序号，按运行顺序（从 0 开始）</translation>
    </message>
    <message>
        <source>How many the measured run has on this rank</source>
        <translation>实测运行在本 rank 上的数量</translation>
    </message>
    <message>
        <source>How many the workload has on this rank</source>
        <translation>工作负载在本 rank 上的数量</translation>
    </message>
</context>
<context>
    <name>flint::views::ChartsPage</name>
    <message>
        <source>Step-time breakdown</source>
        <translation>单步时间分解</translation>
    </message>
    <message>
        <source>Top ops by time</source>
        <translation>耗时最多的算子</translation>
    </message>
    <message>
        <source>Bytes per collective kind</source>
        <translation>各类集合通信的字节数</translation>
    </message>
    <message>
        <source>Traffic per topology dimension</source>
        <translation>各拓扑维度的流量</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Step-time breakdown (%1 per rank)</source>
        <translation>单步时间分解（每个 rank，单位 %1）</translation>
    </message>
    <message>
        <source>time over all ranks (%1)</source>
        <translation>所有 rank 的总时间（%1）</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>rank</translation>
    </message>
    <message>
        <source>base</source>
        <comment>short axis label: the baseline&apos;s mean</comment>
        <translation>基线</translation>
    </message>
    <message>
        <source>now</source>
        <comment>short axis label: this estimate&apos;s mean</comment>
        <translation>当前</translation>
    </message>
    <message>
        <source>exposed comm.</source>
        <translation>未重叠通信</translation>
    </message>
    <message numerus="yes">
        <source>groups of %n rank(s)</source>
        <translation>
            <numerusform>每组 %n 个 rank</numerusform>
        </translation>
    </message>
    <message>
        <source>dimension %1</source>
        <translation>维度 %1</translation>
    </message>
    <message>
        <source>The messages the ranks hand to each kind of collective and send, summed over ranks. The links carry what the algorithms make of them (right): a ring all-reduce of c bytes sends 2(n-1)/n c from each of its n members, a ring all-gather (n-1) c.</source>
        <translation>各 rank 交给每类集合通信并发送的消息，对所有 rank 求和。链路上承载的是算法由此产生的流量（右图）：c 字节的环形 all-reduce 从其 n 个成员各发送 2(n-1)/n c，环形 all-gather 各发送 (n-1) c。</translation>
    </message>
    <message>
        <source>Bytes the collectives&apos; algorithms and the sends put on each dimension&apos;s links, summed over ranks: not the message sizes on the left (a ring all-reduce of c bytes sends 2(n-1)/n c from each of its n members), and a transfer that crosses two dimensions counts in both.</source>
        <translation>集合通信的算法和发送操作在每个维度的链路上产生的字节数，对所有 rank 求和：不是左图的消息大小（c 字节的环形 all-reduce 从其 n 个成员各发送 2(n-1)/n c），跨两个维度的传输在两个维度中都计入。</translation>
    </message>
    <message>
        <source>%1 of messages (all ranks)</source>
        <translation>消息 %1（所有 rank）</translation>
    </message>
    <message>
        <source>%1 on the links (all ranks)</source>
        <translation>链路上 %1（所有 rank）</translation>
    </message>
    <message>
        <source>Breakdown per rank (%1; means first)</source>
        <translation>每个 rank 的时间分解（%1；均值在前）</translation>
    </message>
</context>
<context>
    <name>flint::views::CollectiveAnimationDialog</name>
    <message>
        <source>Collective step by step</source>
        <translation>集合通信逐步演示</translation>
    </message>
    <message>
        <source>First step</source>
        <translation>第一步</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>上一步</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>下一步</translation>
    </message>
    <message>
        <source>Last step</source>
        <translation>最后一步</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 of %3 per GPU over %n GPU(s), %4 in all.</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;：%n 个 GPU 上每个 GPU %3 的 %2，共 %4。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The data moves in %n chunk(s), pipelined through the phases; the steps of one chunk are shown.</source>
        <translation>
            <numerusform>数据分为 %n 块，按流水线依次通过各阶段；此处显示其中一块的步骤。</numerusform>
        </translation>
    </message>
    <message>
        <source>Priced with NCCL&apos;s %1 protocol.</source>
        <translation>按 NCCL 的 %1 协议计时。</translation>
    </message>
    <message>
        <source>No steps to show</source>
        <translation>没有可显示的步骤</translation>
    </message>
    <message>
        <source>This collective moves its data in one round (rooted collectives, permutes and barriers have no staged schedule).</source>
        <translation>该集合通信在一轮内完成数据传输（有根集合通信、置换和屏障没有分阶段的调度）。</translation>
    </message>
    <message>
        <source>all members as one ring</source>
        <translation>全部成员组成一个环</translation>
    </message>
    <message>
        <source>dimension %1 (%2)</source>
        <translation>维度 %1（%2）</translation>
    </message>
    <message numerus="yes">
        <source>Phase %1 of %2: %3 by %4 over %5, in %n group(s) of %6 GPUs</source>
        <translation>
            <numerusform>第 %1/%2 阶段：%5 上以%4算法执行 %3，共 %n 组，每组 %6 个 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>the next GPU of its ring</source>
        <translation>环中的下一个 GPU</translation>
    </message>
    <message>
        <source>every other GPU of its group</source>
        <translation>组内其他每个 GPU</translation>
    </message>
    <message numerus="yes">
        <source>its partner %n position(s) away</source>
        <translation>
            <numerusform>相距 %n 个位置的伙伴</numerusform>
        </translation>
    </message>
    <message>
        <source>its parent in each of the two trees</source>
        <translation>两棵树中各自的父节点</translation>
    </message>
    <message>
        <source>its children in each of the two trees</source>
        <translation>两棵树中各自的子节点</translation>
    </message>
    <message>
        <source>the receiver adds it to its own piece</source>
        <translation>接收方将其加到自己的数据块上</translation>
    </message>
    <message>
        <source>the receiver keeps it</source>
        <translation>接收方保留它</translation>
    </message>
    <message>
        <source>each receiver keeps the piece meant for it</source>
        <translation>每个接收方保留发给自己的那一块</translation>
    </message>
    <message numerus="yes">
        <source>Step %1 of %2: %n GPU(s) send %3 each to %4; %5. This step takes about %6.</source>
        <translation>
            <numerusform>第 %1/%2 步：%n 个 GPU 各向%4发送 %3；%5。此步约需 %6。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>one sentence after another</comment>
        <translation>%1%2</translation>
    </message>
    <message>
        <source>Priced with NCCL&apos;s %1 protocol, whose latency (%2) comes on top of the steps.</source>
        <translation>按 NCCL 的 %1 协议计时，其延迟（%2）另计在各步之外。</translation>
    </message>
    <message numerus="yes">
        <source>Only the first %n step(s) are shown: this collective has more than a picture holds.</source>
        <translation>
            <numerusform>仅显示前 %n 步：该集合通信的步骤多于一张图所能容纳的。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>flint::views::CollectiveAnimationView</name>
    <message>
        <source>dimension %1</source>
        <translation>维度 %1</translation>
    </message>
    <message>
        <source>adds what arrives</source>
        <translation>累加收到的数据</translation>
    </message>
    <message>
        <source>keeps what arrives</source>
        <translation>保留收到的数据</translation>
    </message>
    <message>
        <source>keeps its piece</source>
        <translation>保留属于自己的块</translation>
    </message>
    <message>
        <source>a node</source>
        <translation>一个节点</translation>
    </message>
    <message>
        <source>%1 of %2 messages drawn</source>
        <translation>已绘制 %2 条消息中的 %1 条</translation>
    </message>
</context>
<context>
    <name>flint::views::CommMatrixPage</name>
    <message>
        <source>Aggregate by node</source>
        <translation>按节点聚合</translation>
    </message>
    <message>
        <source>Show the traffic of one collective kind</source>
        <translation>显示某一类集合通信的流量</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>Link time</source>
        <translation>链路时间</translation>
    </message>
    <message>
        <source>Link time: each cell&apos;s bytes over the bandwidth of the topology dimension that carries them (no latency, no contention)</source>
        <translation>链路时间：每个单元格的字节数除以承载它的拓扑维度的带宽（不计延迟与争用）</translation>
    </message>
    <message>
        <source>Kind:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>Order:</source>
        <translation>排序：</translation>
    </message>
    <message>
        <source>by rank</source>
        <translation>按 rank</translation>
    </message>
    <message>
        <source>grouped by %1</source>
        <translation>按%1分组</translation>
    </message>
    <message>
        <source>all kinds</source>
        <translation>所有类型</translation>
    </message>
    <message>
        <source>Put the ranks of each group side by side, so that a mesh axis&apos;s traffic shows as blocks on the diagonal</source>
        <translation>将每组的 rank 排在一起，使某个网格轴的流量显示为对角线上的块</translation>
    </message>
    <message>
        <source>Ordering needs one cell per rank: turn node aggregation off (workloads of more than 1,024 ranks are shown in bins of ranks, in rank order)</source>
        <translation>排序需要每个 rank 一个单元格：请关闭按节点聚合（超过 1,024 个 rank 的工作负载按 rank 分箱、以 rank 顺序显示）</translation>
    </message>
    <message>
        <source>Link traffic</source>
        <translation>链路流量</translation>
    </message>
    <message>
        <source>Logical traffic</source>
        <translation>逻辑流量</translation>
    </message>
    <message>
        <source>Link traffic: what the collective algorithms move between ranks (a ring sends everything to its neighbour). Logical traffic: who sends what to whom in the collectives&apos; semantics (an all-to-all sends a share to every member)</source>
        <translation>链路流量：集合通信算法在 rank 之间实际搬运的数据（环算法把所有数据发给邻居）。逻辑流量：按集合通信的语义，谁向谁发送多少（all-to-all 向每个成员发送一份）</translation>
    </message>
    <message>
        <source>Logical traffic has bytes only: link time belongs to the transfers an algorithm makes</source>
        <translation>逻辑流量只有字节数：链路时间属于算法实际进行的传输</translation>
    </message>
    <message>
        <source>Difference from baseline</source>
        <translation>与基线的差异</translation>
    </message>
    <message>
        <source>Colour each cell by its change from the pinned baseline: red where this estimate moves more bytes (or link time), blue where it moves fewer</source>
        <translation>按相对固定基线的变化为每个单元着色：本估算传输更多字节（或链路时间）处为红色，更少处为蓝色</translation>
    </message>
    <message>
        <source>The baseline has another number of ranks: its cells cannot be compared one by one</source>
        <translation>基线的 rank 数不同：其单元无法逐一比较</translation>
    </message>
    <message>
        <source>Pin an estimate as the baseline (Edit &gt; Pin current estimate as baseline, Ctrl+B) to compare with it</source>
        <translation>将一个估算固定为基线（编辑 &gt; 将当前估算固定为基线，Ctrl+B）以便与之比较</translation>
    </message>
</context>
<context>
    <name>flint::views::CommMatrixView</name>
    <message>
        <source>No estimate yet</source>
        <translation>尚无估算</translation>
    </message>
    <message>
        <source>No rank-to-rank traffic in this step</source>
        <translation>该步中没有 rank 间流量</translation>
    </message>
    <message>
        <source>No %1 traffic in this step</source>
        <translation>该步中没有 %1 流量</translation>
    </message>
    <message>
        <source> (grouped order)</source>
        <translation>（分组顺序）</translation>
    </message>
    <message>
        <source>destination node</source>
        <translation>目标节点</translation>
    </message>
    <message>
        <source>destination rank</source>
        <translation>目标 rank</translation>
    </message>
    <message>
        <source>source node</source>
        <translation>源节点</translation>
    </message>
    <message>
        <source>source rank</source>
        <translation>源 rank</translation>
    </message>
    <message>
        <source>bytes, log scale</source>
        <translation>字节，对数刻度</translation>
    </message>
    <message>
        <source>link time, log scale</source>
        <translation>链路时间，对数刻度</translation>
    </message>
    <message>
        <source>ranks %1 → %2: %3, %4 on the link%5</source>
        <translation>rank %1 → %2：%3，链路上 %4%5</translation>
    </message>
    <message>
        <source>logical bytes, log scale</source>
        <translation>逻辑字节，对数刻度</translation>
    </message>
    <message>
        <source>ranks %1 → %2: %3 in the collectives&apos; semantics%4</source>
        <translation>rank %1 → %2：按集合通信语义 %3%4</translation>
    </message>
    <message>
        <source>change from the baseline in bytes, log scale</source>
        <translation>相对基线的字节变化，对数刻度</translation>
    </message>
    <message>
        <source>change from the baseline in link time, log scale</source>
        <translation>相对基线的链路时间变化，对数刻度</translation>
    </message>
    <message>
        <source>ranks %1 → %2: %3%4 against the baseline (%5 there, %6 here)%7</source>
        <translation>rank %1 → %2：相对基线 %3%4（基线 %5，当前 %6）%7</translation>
    </message>
    <message>
        <source>No difference from the baseline</source>
        <translation>与基线没有差异</translation>
    </message>
</context>
<context>
    <name>flint::views::DagStyle</name>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>memory load/store</source>
        <translation>内存加载/存储</translation>
    </message>
    <message>
        <source>send / recv</source>
        <translation>发送 / 接收</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>group (double-click)</source>
        <translation>组（双击）</translation>
    </message>
    <message>
        <source>repeated block ×N</source>
        <translation>重复块 ×N</translation>
    </message>
</context>
<context>
    <name>flint::views::DagView</name>
    <message>
        <source>Find op by name or kind (Enter: next)</source>
        <translation>按名称或类型查找算子（回车：下一个）</translation>
    </message>
    <message>
        <source>The graph could not be laid out (more than %1 nodes, or Graphviz failed).</source>
        <translation>无法布局该图（超过 %1 个节点，或 Graphviz 失败）。</translation>
    </message>
    <message>
        <source>“%1” holds %2 ops: opening it would show %3 nodes, more than the %4 the view lays out. Search for an op inside it to open just its part.</source>
        <translation>“%1”包含 %2 个算子：展开后将显示 %3 个节点，超过视图可布局的 %4 个。请搜索其中的某个算子，只展开它所在的部分。</translation>
    </message>
    <message>
        <source>The op is in a part of the graph too large to show.</source>
        <translation>该算子位于图中过大而无法显示的部分。</translation>
    </message>
    <message>
        <source>No op matches “%1”.</source>
        <translation>没有与“%1”匹配的算子。</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 个匹配</numerusform>
        </translation>
    </message>
    <message>
        <source>Match %1 of %2</source>
        <translation>第 %1 个匹配，共 %2 个</translation>
    </message>
    <message>
        <source>Flint Explorer DAG</source>
        <translation>Flint Explorer 有向无环图</translation>
    </message>
    <message>
        <source>laying out…</source>
        <translation>正在布局…</translation>
    </message>
    <message>
        <source>No program loaded</source>
        <translation>未加载程序</translation>
    </message>
    <message>
        <source>control dependency</source>
        <translation>控制依赖</translation>
    </message>
    <message>
        <source>data dependency</source>
        <translation>数据依赖</translation>
    </message>
    <message>
        <source>Laying out the graph…</source>
        <translation>正在布局计算图…</translation>
    </message>
    <message>
        <source>dependencies per edge</source>
        <translation>每条边代表的依赖数</translation>
    </message>
</context>
<context>
    <name>flint::views::NetworkUtilisationDialog</name>
    <message>
        <source>Network utilisation</source>
        <translation>网络利用率</translation>
    </message>
    <message numerus="yes">
        <source>How busy each dimension&apos;s links are over the step: the bytes the ranks send on it over what the links could carry, in %n slice(s) of %1. Filled: all ranks&apos; mean; line: the busiest rank. Play or drag to move the time cursor; the links on the left show it.</source>
        <translation>
            <numerusform>每个维度的链路在整个步骤中的繁忙程度：各 rank 在该维度上发送的字节数除以链路可承载的量，分为 %n 个时间片，每片 %1。填充：所有 rank 的平均；折线：最繁忙的 rank。播放或拖动可移动时间游标，左侧的链路随之显示。</numerusform>
        </translation>
    </message>
    <message>
        <source>Above 100 %: transfers that overlap in time each run at the link&apos;s full bandwidth in this model (a pipeline send beside a data-parallel collective, collectives on several streams); a real network shares the link, so they would take longer.</source>
        <translation>超过 100 %：在本模型中，时间上重叠的传输各自以链路的全部带宽运行（流水线发送与数据并行集合通信同时进行、多个流上的集合通信）；真实网络会共享链路，因此它们会更慢。</translation>
    </message>
</context>
<context>
    <name>flint::views::NetworkUtilisationView</name>
    <message>
        <source>switch</source>
        <translation>交换机</translation>
    </message>
    <message numerus="yes">
        <source>Dimension %1: %2 of %Ln NPU(s)</source>
        <translation>
            <numerusform>维度 %1：%2，%Ln 个 NPU</numerusform>
        </translation>
    </message>
    <message>
        <source>average over the step %1, busiest rank at its peak %2; %3 sent</source>
        <translation>整个步骤平均 %1，最繁忙 rank 峰值 %2；共发送 %3</translation>
    </message>
    <message>
        <source>%1 per NPU, now %2 (mean)</source>
        <translation>每个 NPU %1，当前 %2（平均）</translation>
    </message>
    <message>
        <source>%1 GB/s</source>
        <translation>%1 GB/s</translation>
    </message>
</context>
<context>
    <name>flint::views::OpsPage</name>
    <message>
        <source>Filter by name, kind or scope</source>
        <translation>按名称、类型或作用域筛选</translation>
    </message>
    <message numerus="yes">
        <source>%Ln op(s) of rank %1</source>
        <translation>
            <numerusform>rank %1 的 %Ln 个算子</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %Ln op(s) of rank %2</source>
        <translation>
            <numerusform>rank %2 的 %Ln 个算子中的 %1 个</numerusform>
        </translation>
    </message>
    <message>
        <source>the baseline runs other ops: no per-op change to show</source>
        <translation>基线运行的是其他算子：无法显示逐算子变化</translation>
    </message>
</context>
<context>
    <name>flint::views::OpsTableModel</name>
    <message>
        <source>FLOP</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <source>Estimated start, from the step&apos;s start</source>
        <translation>估算的开始时间，从步骤开始算起</translation>
    </message>
    <message>
        <source>Estimated time once the op runs</source>
        <translation>算子开始运行后的估算耗时</translation>
    </message>
    <message>
        <source>Time a collective waited for the last member of its group</source>
        <translation>集合通信等待其通信组最后一个成员的时间</translation>
    </message>
    <message>
        <source>Device memory bytes read and written</source>
        <translation>读写设备内存的字节数</translation>
    </message>
    <message>
        <source>Bytes this rank contributes to a collective or sends</source>
        <translation>该 rank 为集合通信贡献或发送的字节数</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>作用域</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Waited</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Communicated</source>
        <translation>通信量</translation>
    </message>
    <message>
        <source>The op&apos;s time minus its time in the pinned baseline</source>
        <translation>该算子的时间减去其在固定基线中的时间</translation>
    </message>
    <message>
        <source>vs baseline</source>
        <translation>相对基线</translation>
    </message>
</context>
<context>
    <name>flint::views::ParallelismPanel</name>
    <message>
        <source>A built-in model with its published hyperparameters (docs/models.md)</source>
        <translation>采用已发表超参数的内置模型（docs/models.md）</translation>
    </message>
    <message>
        <source>File…</source>
        <translation>文件…</translation>
    </message>
    <message>
        <source>Read a model from a &apos;key = value&apos; file</source>
        <translation>从“key = value”文件读取模型</translation>
    </message>
    <message>
        <source>Tensor parallelism: Megatron column/row-parallel matmuls</source>
        <translation>张量并行：Megatron 列/行并行矩阵乘</translation>
    </message>
    <message>
        <source>Pipeline stages</source>
        <translation>流水线阶段数</translation>
    </message>
    <message>
        <source>Data-parallel replicas</source>
        <translation>数据并行副本数</translation>
    </message>
    <message>
        <source>Context parallelism: the sequence split over ranks (ring attention)</source>
        <translation>上下文并行：序列切分到多个 rank（环形注意力）</translation>
    </message>
    <message>
        <source>Expert parallelism (mixture-of-experts models); divides DP</source>
        <translation>专家并行（混合专家模型）；需整除 DP</translation>
    </message>
    <message>
        <source>Sequence parallelism</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>Model chunks per pipeline rank (interleaved schedule)</source>
        <translation>每个流水线 rank 的模型块数（交错调度）</translation>
    </message>
    <message>
        <source>Sequences per microbatch</source>
        <translation>每个微批的序列数</translation>
    </message>
    <message>
        <source>Sequences per step</source>
        <translation>每步的序列数</translation>
    </message>
    <message>
        <source>Flash attention</source>
        <translation>Flash 注意力</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>TP</source>
        <translation>TP</translation>
    </message>
    <message>
        <source>PP</source>
        <translation>PP</translation>
    </message>
    <message>
        <source>DP</source>
        <translation>DP</translation>
    </message>
    <message>
        <source>CP</source>
        <translation>CP</translation>
    </message>
    <message>
        <source>EP</source>
        <translation>EP</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>调度</translation>
    </message>
    <message>
        <source>Virtual stages</source>
        <translation>虚拟阶段数</translation>
    </message>
    <message>
        <source>Microbatch</source>
        <translation>微批</translation>
    </message>
    <message>
        <source>Global batch</source>
        <translation>全局批大小</translation>
    </message>
    <message>
        <source>ZeRO</source>
        <translation>ZeRO</translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>Matmul dtype</source>
        <translation>矩阵乘数据类型</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>%1 (TP x CP x PP x DP)</source>
        <translation>%1（TP x CP x PP x DP）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;; try %2&lt;br&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;；可尝试 %2&lt;br&gt;</translation>
    </message>
    <message>
        <source>Reshard after forward</source>
        <translation>前向后重新分片</translation>
    </message>
    <message>
        <source>ZeRO-3 (FSDP): free each layer&apos;s gathered parameters after its forward pass and gather them again for its backward pass</source>
        <translation>ZeRO-3 (FSDP)：每层的前向计算结束后释放其汇集的参数，反向计算前再次汇集</translation>
    </message>
    <message>
        <source>ZeRO-3 hybrid sharding (HSDP): shard over groups of this many data-parallel ranks and replicate across the groups</source>
        <translation>ZeRO-3 混合分片（HSDP）：在由这么多个数据并行 rank 组成的组内分片，组间复制</translation>
    </message>
    <message>
        <source>all of DP</source>
        <translation>全部 DP</translation>
    </message>
    <message>
        <source>Shard group</source>
        <translation>分片组</translation>
    </message>
    <message>
        <source>Choose a built-in model…</source>
        <translation>选择内置模型…</translation>
    </message>
    <message>
        <source>TP overlap</source>
        <translation>TP 重叠</translation>
    </message>
    <message>
        <source>Megatron-LM&apos;s --tp-comm-overlap: tensor-parallel all-gathers and reduce-scatters pipelined with the GEMMs they feed or follow (training, TP &gt; 1)</source>
        <translation>Megatron-LM 的 --tp-comm-overlap：张量并行的 all-gather 与 reduce-scatter 与其前后的 GEMM 流水线重叠（训练，TP &gt; 1）</translation>
    </message>
    <message>
        <source>interleaved 1F1B</source>
        <translation>交错 1F1B</translation>
    </message>
    <message>
        <source>none</source>
        <comment>ZeRO stage</comment>
        <translation>无</translation>
    </message>
    <message>
        <source>none</source>
        <comment>recomputation</comment>
        <translation>无</translation>
    </message>
    <message>
        <source>selective</source>
        <comment>recomputation</comment>
        <translation>选择性</translation>
    </message>
    <message>
        <source>full</source>
        <comment>recomputation</comment>
        <translation>完全</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>Overlap gradient reduction</source>
        <translation>梯度归约重叠</translation>
    </message>
    <message>
        <source>ZeRO 0-2: reduce each layer&apos;s gradients once its last backward pass has produced them, behind the rest of the backward pass (PyTorch DDP, Megatron-LM&apos;s --overlap-grad-reduce); off, after the whole backward pass</source>
        <translation>ZeRO 0-2：每层梯度在其最后一次反向传播产生后即进行归约，与其余反向传播重叠（PyTorch DDP、Megatron-LM 的 --overlap-grad-reduce）；关闭时在整个反向传播之后进行</translation>
    </message>
    <message>
        <source>Overlap parameter gather</source>
        <translation>参数收集重叠</translation>
    </message>
    <message>
        <source>ZeRO 1-2: gather the updated weights layer by layer during the forward pass (Megatron-Core&apos;s --overlap-param-gather); off, after the optimizer</source>
        <translation>ZeRO 1-2：在前向传播期间逐层收集更新后的权重（Megatron-Core 的 --overlap-param-gather）；关闭时在优化器之后收集</translation>
    </message>
    <message>
        <source>Fused cross entropy</source>
        <translation>融合交叉熵</translation>
    </message>
    <message>
        <source>The loss as one fused kernel pass over the logits (Transformer Engine&apos;s, Megatron-Bridge&apos;s and llm-foundry&apos;s default); off, a kernel per step in fp32 as Megatron-LM and PyTorch&apos;s cross_entropy run it</source>
        <translation>损失作为对 logits 的一次融合内核计算（Transformer Engine、Megatron-Bridge 和 llm-foundry 的默认方式）；关闭时，按 Megatron-LM 和 PyTorch cross_entropy 的做法，每一步一个 fp32 内核</translation>
    </message>
    <message>
        <source>Eager PyTorch kernels</source>
        <translation>Eager PyTorch 内核</translation>
    </message>
    <message>
        <source>RMSNorm and the rotary embedding as uncompiled PyTorch runs them, a kernel per tensor operation in fp32 (torchtitan, IBM fms); off, one fused kernel each</source>
        <translation>按未编译的 PyTorch 执行 RMSNorm 和旋转位置编码：每个张量运算一个 fp32 内核（torchtitan、IBM fms）；关闭时各为一个融合内核</translation>
    </message>
    <message>
        <source>all-to-all</source>
        <translation>all-to-all</translation>
    </message>
    <message>
        <source>How routed tokens reach their experts (EP &gt; 1): all-to-all sends a copy per chosen expert (Megatron-LM&apos;s alltoall dispatcher); HybridEP sends a token once per node over the network and once per GPU over NVLink (Megatron-Core&apos;s flex dispatcher with HybridEP or DeepEP)</source>
        <translation>路由后的 token 如何到达其专家（EP &gt; 1）：all-to-all 为每个选中的专家发送一份副本（Megatron-LM 的 alltoall 分发器）；HybridEP 让每个 token 经网络每节点只发送一次、经 NVLink 每 GPU 只发送一次（Megatron-Core 的 flex 分发器配合 HybridEP 或 DeepEP）</translation>
    </message>
    <message>
        <source>HybridEP: ranks per NVLink domain (8 on a DGX or HGX node, 72 on NVL72)</source>
        <translation>HybridEP：每个 NVLink 域的 rank 数（DGX 或 HGX 节点为 8，NVL72 为 72）</translation>
    </message>
    <message>
        <source>Dispatch</source>
        <translation>分发</translation>
    </message>
    <message>
        <source>Reduce gradients in bf16</source>
        <translation>以 bf16 归约梯度</translation>
    </message>
    <message>
        <source>Accumulate and reduce data-parallel gradients in bf16 (Megatron-Bridge&apos;s performance recipes); off, in fp32 as Megatron-LM does by default</source>
        <translation>以 bf16 累加并归约数据并行梯度（Megatron-Bridge 的性能配方）；关闭时按 Megatron-LM 的默认做法使用 fp32</translation>
    </message>
    <message>
        <source>fp8, delayed scaling</source>
        <translation>fp8，延迟缩放</translation>
    </message>
    <message>
        <source>fp8, current scaling</source>
        <translation>fp8，当前缩放</translation>
    </message>
    <message>
        <source>The matmuls&apos; precision. FP8 as Transformer Engine runs it: weights cast once a step, activations and gradients cast once each; current scaling reads each tensor once more for its amax (docs/models.md)</source>
        <translation>矩阵乘法的精度。FP8 按 Transformer Engine 的方式运行：权重每步转换一次，激活和梯度各转换一次；当前缩放为求 amax 再读取每个张量一次（docs/models.md）</translation>
    </message>
    <message>
        <source>The figures of the previous strategy: the current one is not estimated yet</source>
        <translation>上一个策略的数值：当前策略尚未估算</translation>
    </message>
    <message>
        <source>The figures below are those of the last valid strategy.</source>
        <translation>下方数值属于上一个有效策略。</translation>
    </message>
    <message>
        <source>FSDP2 copy-out</source>
        <translation>FSDP2 拷出</translation>
    </message>
    <message>
        <source>ZeRO-3 as PyTorch FSDP2 (fully_shard, torchtitan) runs it: after every all-gather, a copy on the compute stream splits the gathered buffer into the layer&apos;s parameters; off, as FSDP1 and DeepSpeed, the layers compute on the gathered buffer</source>
        <translation>按 PyTorch FSDP2（fully_shard，torchtitan）的方式运行 ZeRO-3：每次 all-gather 之后，计算流上的一次拷贝把收集到的缓冲区拆分成该层的参数；关闭时与 FSDP1 和 DeepSpeed 相同，各层直接在收集到的缓冲区上计算</translation>
    </message>
</context>
<context>
    <name>flint::views::PipelineScheduleDialog</name>
    <message>
        <source>Pipeline schedule</source>
        <translation>流水线调度</translation>
    </message>
    <message numerus="yes">
        <source>interleaved 1F1B (%n chunk(s) per stage)</source>
        <translation>
            <numerusform>交错 1F1B（每阶段 %n 个分块）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt; over %2 stages with %n microbatch(es): each stage idles %3 of the step (the bubble, hatched) when a forward pass takes one unit, a backward pass two and nothing else takes time. Boxes are numbered by microbatch; light forward, dark backward.</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;，%2 个阶段，%n 个微批次：若前向一次耗时一个单位、反向两个单位且其他操作不耗时，每个阶段有 %3 的时间空闲（即气泡，斜线部分）。方块上的数字是微批次编号；浅色为前向，深色为反向。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>flint::views::PipelineScheduleView</name>
    <message>
        <source>stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>time, in forward passes of one microbatch through one stage</source>
        <translation>时间，以一个微批次通过一个阶段的前向传播为单位</translation>
    </message>
</context>
<context>
    <name>flint::views::PlayButton</name>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
</context>
<context>
    <name>flint::views::TimelinePage</name>
    <message>
        <source>Fit</source>
        <translation>适配窗口</translation>
    </message>
    <message>
        <source>Group lanes by:</source>
        <translation>泳道分组依据：</translation>
    </message>
    <message numerus="yes">
        <source>node (%n rank(s) each)</source>
        <translation>
            <numerusform>节点（每个节点 %n 个 rank）</numerusform>
        </translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>%1. How lanes are grouped; click a group&apos;s label in the timeline to collapse it</source>
        <translation>%1。泳道的分组方式；在时间线中点击组标签可将其折叠</translation>
    </message>
</context>
<context>
    <name>flint::views::TimelineView</name>
    <message>
        <source>program %1</source>
        <translation>程序 %1</translation>
    </message>
    <message>
        <source>group %1</source>
        <translation>组 %1</translation>
    </message>
    <message>
        <source>node %1</source>
        <translation>节点 %1</translation>
    </message>
    <message>
        <source>No estimate yet: open a workload</source>
        <translation>尚无估算：请打开一个工作负载</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n rank(s) (%2), collapsed. Shade: share of its ranks computing (top) and communicating (bottom). Click the label to expand.</source>
        <translation>
            <numerusform>%1：%n 个 rank（%2），已折叠。阴影：其中正在计算（上）和通信（下）的 rank 所占比例。点击标签可展开。</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 on rank %3&lt;br&gt;start %4, duration %5</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;rank %3 上的 %2&lt;br&gt;开始 %4，时长 %5</translation>
    </message>
    <message>
        <source>&lt;br&gt;waited %1 for its peers</source>
        <translation>&lt;br&gt;等待对端 %1</translation>
    </message>
    <message>
        <source>&lt;br&gt;%1 per rank</source>
        <translation>&lt;br&gt;每个 rank %1</translation>
    </message>
    <message>
        <source>&lt;br&gt;%1 FLOP, %2 of memory traffic</source>
        <translation>&lt;br&gt;%1 FLOP，内存流量 %2</translation>
    </message>
    <message>
        <source>%1 to %2 (%3): compute %4%, exposed communication %5%, idle %6%, %7 ops</source>
        <translation>%1 至 %2（%3）：计算 %4%，未重叠通信 %5%，空闲 %6%，%7 个算子</translation>
    </message>
    <message>
        <source>stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>forward %1</source>
        <translation>前向 %1</translation>
    </message>
    <message>
        <source>backward %1</source>
        <translation>反向 %1</translation>
    </message>
</context>
<context>
    <name>flint::views::WhatIfPanel</name>
    <message>
        <source>(custom)</source>
        <translation>（自定义）</translation>
    </message>
    <message>
        <source>A built-in system, sized to the workload&apos;s ranks</source>
        <translation>内置系统，规模按工作负载的 rank 数确定</translation>
    </message>
    <message>
        <source>Flint (default)</source>
        <translation>Flint（默认）</translation>
    </message>
    <message>
        <source>ASTRA-sim analytical</source>
        <translation>ASTRA-sim 解析模型</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Collective model</source>
        <translation>集合通信模型</translation>
    </message>
    <message>
        <source>Comm streams</source>
        <translation>通信流</translation>
    </message>
    <message>
        <source>Topology</source>
        <translation>拓扑</translation>
    </message>
    <message>
        <source>NPUs</source>
        <translation>NPU 数</translation>
    </message>
    <message>
        <source>GB/s</source>
        <translation>GB/s</translation>
    </message>
    <message>
        <source>Network dimensions (innermost first)</source>
        <translation>网络维度（由内到外）</translation>
    </message>
    <message>
        <source>Fixed by the workload&apos;s rank count</source>
        <translation>由工作负载的 rank 数决定</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <source>Per-NPU bandwidth, one direction, in GB/s (GB = 10^9 bytes, as in data sheets and flint --scale-out-bandwidth)</source>
        <translation>每个 NPU 单方向带宽，单位 GB/s（GB = 10^9 字节，与数据手册及 flint --scale-out-bandwidth 一致）</translation>
    </message>
    <message>
        <source>How the NPUs of this dimension are connected</source>
        <translation>此维度中 NPU 的连接方式</translation>
    </message>
    <message>
        <source>NPUs along this dimension</source>
        <translation>此维度上的 NPU 数</translation>
    </message>
    <message>
        <source>Bandwidth per NPU in this dimension, GB/s</source>
        <translation>此维度中每个 NPU 的带宽，GB/s</translation>
    </message>
    <message>
        <source>ns</source>
        <translation>ns</translation>
    </message>
    <message>
        <source>Latency per hop, ns</source>
        <translation>每跳延迟，ns</translation>
    </message>
    <message>
        <source>Collective algorithm in this dimension</source>
        <translation>此维度中的集合通信算法</translation>
    </message>
    <message>
        <source>%1 in a network YAML file</source>
        <translation>网络 YAML 文件中的 %1</translation>
    </message>
    <message>
        <source>%1: the collective algorithm on this dimension. Double binary tree applies to all-reduce; the other collectives then use the ring.</source>
        <translation>%1：该维度上的集合通信算法。双二叉树仅用于 all-reduce，其他集合通信此时使用环形算法。</translation>
    </message>
</context>
<context>
    <name>flint::views::kindLabel</name>
    <message>
        <source>metadata</source>
        <translation>元数据</translation>
    </message>
    <message>
        <source>memory load</source>
        <translation>内存读取</translation>
    </message>
    <message>
        <source>memory store</source>
        <translation>内存写入</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>recv</source>
        <translation>接收</translation>
    </message>
</context>
<context>
    <name>flint::views::partitionLabel</name>
    <message numerus="yes">
        <source>communicators: %n group(s) of %1 ranks (%2)</source>
        <translation>
            <numerusform>通信器：%n 个组，每组 %1 个 rank（%2）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%2: %n group(s) of %1 ranks</source>
        <translation>
            <numerusform>%2：%n 个组，每组 %1 个 rank</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%3: %n group(s) of %1 ranks (%2)</source>
        <translation>
            <numerusform>%3：%n 个组，每组 %1 个 rank（%2）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>pipeline stages: %n of %1 ranks each</source>
        <translation>
            <numerusform>流水线阶段：%n 个，每个 %1 个 rank</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>programs: %n of %1 ranks each</source>
        <translation>
            <numerusform>程序：%n 个，每个 %1 个 rank</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Explore distributed ML workloads without a cluster.</source>
        <translation>无需集群即可探索分布式机器学习工作负载。</translation>
    </message>
    <message>
        <source>Render the window once the estimate is ready, save it and exit.</source>
        <translation>估算完成后渲染窗口、保存为图像并退出。</translation>
    </message>
    <message>
        <source>User interface language instead of the system&apos;s: %1 or en.</source>
        <translation>界面语言（代替系统语言）：%1 或 en。</translation>
    </message>
    <message>
        <source>Tab to show: graph, timeline, communication, charts, ops, validation or sweep (English names, also under other languages; a unique prefix will do).</source>
        <translation>要显示的标签页：graph、timeline、communication、charts、ops、validation 或 sweep（英文名称，在其他语言下同样适用；唯一前缀即可）。</translation>
    </message>
    <message>
        <source>An XLA HLO or MLIR module, a Chakra trace (file, prefix or folder), a measured profile (PyTorch or JAX) or a model file. Default: the built-in GPT-3 175B on 1,024 H100s.</source>
        <translation>XLA HLO 或 MLIR 模块、Chakra 跟踪（文件、前缀或文件夹）、实测性能剖析（PyTorch 或 JAX）或模型文件。默认：内置的 GPT-3 175B，运行于 1,024 块 H100。</translation>
    </message>
    <message>
        <source>Compare the estimate with this measured run (a PyTorch or XLA/JAX profiler trace, a folder of one per rank, or a Chakra trace with recorded times) in the Validation tab.</source>
        <translation>在“验证”标签页中将估计与此实测运行比较（PyTorch 或 XLA/JAX 性能剖析跟踪、每个 rank 一个文件的文件夹，或带记录时间的 Chakra 跟踪）。</translation>
    </message>
    <message>
        <source>With --screenshot: save the picture with a palette of its 256 most frequent colours (less than half the bytes; the pictures in docs).</source>
        <translation>与 --screenshot 一起使用：用图片中最常见的 256 种颜色作为调色板保存（字节数不到一半；docs 中的图片即如此）。</translation>
    </message>
</context>
</TS>

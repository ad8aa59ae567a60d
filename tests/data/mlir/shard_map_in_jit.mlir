// A jit program with a shard_map inside (JAX's sdy export): the manual body has its own all-reduce,
// the code around it is written on global shapes and still needs partitioning.
module @jit_shard_map_in_jit attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x16xf32>) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%a: tensor<2x16xf32>, %w: tensor<16x16xf32>) {
      %1 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<2x16xf32>, tensor<16x16xf32>) -> tensor<2x16xf32>
      %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = stablehlo.add %x, %y : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<2x16xf32>) -> tensor<2x16xf32>
      sdy.return %2 : tensor<2x16xf32>
    } : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %3 = stablehlo.tanh %0 : tensor<8x16xf32>
    return %3 : tensor<8x16xf32>
  }
}

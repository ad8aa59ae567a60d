// Shardy ops exporters write besides shardings: a named computation (a call whose in_ and
// out_shardings constrain its operands and results), a propagation barrier and a sharding group.
module @jit_named attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x32xf32>) -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    sdy.sharding_group %arg0 group_id=0 : tensor<8x16xf32>
    %0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<8x16xf32>
    %1 = sdy.named_computation<"dense">(%0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"x"}]>] out_shardings=[<@mesh, [{"x"}, {}]>] (%a: tensor<8x16xf32>, %w: tensor<16x32xf32>) {
      %2 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
      sdy.return %2 : tensor<8x32xf32>
    } : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    return %1 : tensor<8x32xf32>
  }
}

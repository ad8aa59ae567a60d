// SPDX-License-Identifier: MIT
// Hand-written StableHLO and Shardy in generic form. Neither dialect is registered in flint_mlir's
// upstream context, so this parses only with allowUnregistered = true (ops become unregistered
// generic operations, #sdy attributes become opaque attributes). Counts are asserted in
// tests/mlir/tst_mlirreader.cpp.
module @generic_stablehlo attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  "sdy.mesh"() <{sym_name = "mesh", mesh = #sdy.mesh<["x"=2, "y"=2]>}> : () -> ()
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                         %arg1: tensor<16x4xf32>) -> tensor<8x4xf32> {
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %1 = "stablehlo.all_reduce"(%0) <{replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %2 = "stablehlo.tanh"(%1) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %2 : tensor<8x4xf32>
  }
}

// SPDX-License-Identifier: MIT
// Hand-written StableHLO for tests/mlir/tst_mlirimport.cpp: a counted while loop (5 iterations), a
// loop whose count depends on an argument, a call inside the loop, loc names as scopes, the generic
// form of dot_general, and an all_reduce over the module's two replicas.
module @loops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x16xf32>, %limit: tensor<i32>) -> tensor<8x16xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%i = %c0, %x = %arg0) : tensor<i32>, tensor<8x16xf32>
     cond {
      %c5 = stablehlo.constant dense<5> : tensor<i32>
      %p = stablehlo.compare  LT, %i, %c5,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %c1 = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %c1 : tensor<i32>
      %y = "stablehlo.dot_general"(%x, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32> loc("jit(step)/layer/dot_general")
      %z = func.call @act(%y) : (tensor<8x16xf32>) -> tensor<8x16xf32>
      stablehlo.return %next, %z : tensor<i32>, tensor<8x16xf32>
    }
    %1:2 = stablehlo.while(%j = %c0, %w = %0#1) : tensor<i32>, tensor<8x16xf32>
     cond {
      %q = stablehlo.compare  LT, %j, %limit,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %q : tensor<i1>
    } do {
      %c1 = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %j, %c1 : tensor<i32>
      %v = stablehlo.negate %w : tensor<8x16xf32>
      stablehlo.return %next, %v : tensor<i32>, tensor<8x16xf32>
    }
    %2 = "stablehlo.all_reduce"(%1#1) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %2 : tensor<8x16xf32>
  }
  func.func private @act(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<8x16xf32> loc("jit(step)/layer/tanh")
    return %0 : tensor<8x16xf32>
  }
}

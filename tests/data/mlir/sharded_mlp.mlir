// SPDX-License-Identifier: MIT
// Hand-written in the form jax.jit(...).lower(...) prints: shardings on the arguments, no
// collectives. A Megatron MLP (x data-parallel on mesh axis "x", w1 column- and w2 row-parallel on
// "y"), a weight gradient contracting the batch, and a constraint to replicated.
// tests/mlir/tst_mlirimport.cpp partitions it for several meshes.
module @jit_mlp attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%x: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                         %w1: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                         %w2: tensor<256x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
      -> (tensor<16x64xf32>, tensor<64x64xf32>) {
    %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %zb = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %a = stablehlo.maximum %h, %zb : tensor<16x256xf32>
    %y = stablehlo.dot_general %a, %w2, contracting_dims = [1] x [0] : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
    %t = stablehlo.tanh %y : tensor<16x64xf32>
    %g = stablehlo.dot_general %x, %t, contracting_dims = [0] x [0] : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<64x64xf32>
    %r = sdy.sharding_constraint %t <@mesh, [{}, {}]> : tensor<16x64xf32>
    return %r, %g : tensor<16x64xf32>, tensor<64x64xf32>
  }
}

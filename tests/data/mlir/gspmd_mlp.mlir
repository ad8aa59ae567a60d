// SPDX-License-Identifier: MIT
// Hand-written in the form torch_xla and older jax print: GSPMD shardings as mhlo.sharding strings
// (no sdy.mesh), a sharding custom call, and an enclosing value read inside a reduce region. The
// tilings [2,1,4]-replicated, [1,4] and [4,1] over 8 devices nest into the implicit mesh d0=2,
// d1=4. x is split by rows on d0; w1 by columns and w2 by rows on d1 (Megatron), so y = h.w2 is a
// partial sum over d1, all-reduced when the Sharding call asks for it replicated.
module @gspmd_mlp attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<16x64xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"},
                         %w1: tensor<64x256xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"},
                         %w2: tensor<256x64xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"})
      -> tensor<16x64xf32> {
    %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
    %y = stablehlo.dot_general %h, %w2, contracting_dims = [1] x [0] : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
    %r = stablehlo.custom_call @Sharding(%y) {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<16x64xf32>) -> tensor<16x64xf32>
    return %r : tensor<16x64xf32>
  }
}

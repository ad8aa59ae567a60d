// SPDX-License-Identifier: MIT
// Hand-written in the form jax.jit(...).lower(...) prints, for the partitioner's convolution and
// gather rules. Mesh "x" (data) x "y" (model):
// - conv1: images split on "x" by batch, kernel split on "y" by output feature: local, no collective;
// - conv2: its input features (conv1's output, split on "y") meet a kernel split on "y" by input
//   feature: a partial sum, completed by one all-reduce over "y" when returned;
// - a vocabulary-parallel embedding lookup: the table split on "y" by row, token ids on "x" by batch:
//   each device gathers the rows it holds, a partial sum completed by one all-reduce over "y";
// - the embedding result is returned with an out sharding on "x" by batch and "y" by hidden: a
//   reduce-scatter over "y" instead.
module @jit_conv_embedding attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%img: tensor<8x16x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}, {}]>},
                         %k1: tensor<3x3x32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {"y"}]>},
                         %k2: tensor<3x3x64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"y"}, {}]>},
                         %table: tensor<1024x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
                         %ids: tensor<8x32xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> (tensor<8x16x16x16xf32>, tensor<8x32x64xf32>, tensor<8x32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>}) {
    %c1 = stablehlo.convolution(%img, %k1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x16x16x32xf32>, tensor<3x3x32x64xf32>) -> tensor<8x16x16x64xf32> loc("net/conv1")
    %c2 = stablehlo.convolution(%c1, %k2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x16x16x64xf32>, tensor<3x3x64x16xf32>) -> tensor<8x16x16x16xf32> loc("net/conv2")
    %idx = stablehlo.reshape %ids : (tensor<8x32xi32>) -> tensor<8x32x1xi32>
    %e = "stablehlo.gather"(%table, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 64>}> : (tensor<1024x64xf32>, tensor<8x32x1xi32>) -> tensor<8x32x64xf32> loc("net/embed")
    return %c2, %e, %e : tensor<8x16x16x16xf32>, tensor<8x32x64xf32>, tensor<8x32x64xf32>
  }
}

// SPDX-License-Identifier: MIT
// Hand-written upstream MLIR (MLIR 19): a two-layer MLP on a 2x4 device mesh, data-parallel on
// axis 0 and tensor-parallel on axis 1. Exercises func, arith, tensor, linalg and mesh.
// Operation counts are asserted in tests/mlir/tst_mlirreader.cpp; keep them in sync.
module @mlp_mesh {
  mesh.mesh @mesh0(shape = 2x4)

  func.func @relu(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<8x64xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<8x64xf32>) outs(%init : tensor<8x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<8x64xf32>
    return %r : tensor<8x64xf32>
  }

  func.func @main(%input: tensor<8x32xf32>, %w1: tensor<32x64xf32>, %w2: tensor<64x16xf32>) -> tensor<8x16xf32> {
    %in_s = mesh.shard %input to <@mesh0, [[0]]> annotate_for_users : tensor<8x32xf32>
    %w1_s = mesh.shard %w1 to <@mesh0, [[], [1]]> annotate_for_users : tensor<32x64xf32>
    %zero = arith.constant 0.0 : f32
    %init1 = tensor.empty() : tensor<8x64xf32>
    %acc1 = linalg.fill ins(%zero : f32) outs(%init1 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %h = linalg.matmul ins(%in_s, %w1_s : tensor<8x32xf32>, tensor<32x64xf32>)
                       outs(%acc1 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %a = func.call @relu(%h) : (tensor<8x64xf32>) -> tensor<8x64xf32>
    %init2 = tensor.empty() : tensor<8x16xf32>
    %acc2 = linalg.fill ins(%zero : f32) outs(%init2 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %y = linalg.matmul ins(%a, %w2 : tensor<8x64xf32>, tensor<64x16xf32>)
                       outs(%acc2 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %y_r = mesh.all_reduce %y on @mesh0 mesh_axes = [1] : tensor<8x16xf32> -> tensor<8x16xf32>
    %two = arith.constant 2.0 : f32
    %scale = tensor.splat %two : tensor<8x16xf32>
    %out = arith.mulf %y_r, %scale : tensor<8x16xf32>
    %out_s = mesh.shard %out to <@mesh0, [[0]]> : tensor<8x16xf32>
    return %out_s : tensor<8x16xf32>
  }
}

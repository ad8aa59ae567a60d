// Hand-written with MLIR 19's upstream dialects: a Megatron MLP on linalg, annotated with the mesh
// dialect's mesh.shard (no collectives), as torch-mlir / IREE-style flows carry it. Mesh axes have
// no names; the frontend calls them d0, d1. The batch of x is split on axis 0, w1's columns and w2's
// rows on axis 1, so y = relu(x w1) w2 contracts an axis-1-sharded dimension: one all-reduce over
// axis 1 per device, nothing over axis 0. relu is an all-parallel linalg.generic (a map).
module {
  mesh.mesh @mesh0(shape = 2x4)
  func.func @main(%x: tensor<8x64xf32>, %w1: tensor<64x256xf32>, %w2: tensor<256x64xf32>) -> tensor<8x64xf32> {
    %xs = mesh.shard %x to <@mesh0, [[0]]> : tensor<8x64xf32>
    %w1s = mesh.shard %w1 to <@mesh0, [[], [1]]> : tensor<64x256xf32>
    %w2s = mesh.shard %w2 to <@mesh0, [[1]]> : tensor<256x64xf32>
    %zero = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<8x256xf32>
    %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x256xf32>) -> tensor<8x256xf32>
    %h = linalg.matmul ins(%xs, %w1s : tensor<8x64xf32>, tensor<64x256xf32>) outs(%f1 : tensor<8x256xf32>) -> tensor<8x256xf32> loc("mlp/up")
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%h : tensor<8x256xf32>) outs(%e1 : tensor<8x256xf32>) {
      ^bb0(%in: f32, %out: f32):
        %m = arith.maximumf %in, %zero : f32
        linalg.yield %m : f32
    } -> tensor<8x256xf32> loc("mlp/relu")
    %e2 = tensor.empty() : tensor<8x64xf32>
    %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %y = linalg.matmul ins(%r, %w2s : tensor<8x256xf32>, tensor<256x64xf32>) outs(%f2 : tensor<8x64xf32>) -> tensor<8x64xf32> loc("mlp/down")
    %ys = mesh.shard %y to <@mesh0, [[0]]> : tensor<8x64xf32>
    return %ys : tensor<8x64xf32>
  }
}

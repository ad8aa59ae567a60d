// Hand-written with MLIR 19's mesh dialect: a program already partitioned for a 2 x 4 mesh, with
// explicit mesh collectives. Expected per rank: all-reduce over the 4 devices of its row (mesh
// axis 1), all-gather and reduce-scatter over the 2 of its column (axis 0), and a rotating shift
// along axis 1 (a collective-permute).
module {
  mesh.mesh @mesh0(shape = 2x4)
  func.func @main(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
    %r = mesh.all_reduce %x on @mesh0 mesh_axes = [1] : tensor<4x64xf32> -> tensor<4x64xf32> loc("block/reduce")
    %g = mesh.all_gather %r on @mesh0 mesh_axes = [0] gather_axis = 0 : tensor<4x64xf32> -> tensor<8x64xf32>
    %s = mesh.reduce_scatter %g on @mesh0 mesh_axes = [0] scatter_axis = 0 : tensor<8x64xf32> -> tensor<4x64xf32>
    %t = mesh.shift %s on @mesh0 mesh_axes = [1] shift_axis = 1 offset = 1 rotate : tensor<4x64xf32> -> tensor<4x64xf32>
    return %t : tensor<4x64xf32>
  }
}

// SPDX-License-Identifier: MIT
// Hand-written bad input: a broadcast_in_dim whose dims list is not closed (line 6).
module @bad_pretty {
  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4x4xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0 : (tensor<4xf32>) -> tensor<4x4xf32>
    return %1 : tensor<4x4xf32>
  }
}

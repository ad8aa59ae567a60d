// SPDX-License-Identifier: MIT
// Bad input: a composite without its decomposition, under an explicit name location (as jax prints
// them), so MLIR's own location of the op no longer says where it is written. The error must still
// name line 8.
module @bad_composite {
  func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    %b = stablehlo.add %a, %a : tensor<4xf32> loc("model/add")
    %c = "stablehlo.composite"(%b) {name = "model.gelu"} : (tensor<4xf32>) -> tensor<4xf32> loc("model/gelu")
    return %c : tensor<4xf32>
  }
}

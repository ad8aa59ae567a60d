// SPDX-License-Identifier: MIT
// A while body that reads a value of the enclosing function (StableHLO regions may): every
// iteration's multiply must wait for the exponential computed before the loop.
module @captured {
  func.func public @main(%a: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %w = stablehlo.exponential %a : tensor<256x256xf32> loc("outer/exp")
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %a) : tensor<i32>, tensor<256x256xf32>
     cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare  LT, %i, %n,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      %m = stablehlo.multiply %acc, %w : tensor<256x256xf32> loc("body/mul")
      stablehlo.return %j, %m : tensor<i32>, tensor<256x256xf32>
    }
    return %r#1 : tensor<256x256xf32>
  }
}

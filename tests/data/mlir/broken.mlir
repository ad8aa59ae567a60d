// SPDX-License-Identifier: MIT
// Deliberately invalid MLIR: line 6 uses an undefined SSA value (%missing). The test expects the
// error at line 6, column 25.
func.func @broken(%a: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %sum = arith.addf %a, %missing : f32
  return %sum : f32
}

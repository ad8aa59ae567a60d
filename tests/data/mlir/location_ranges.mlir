#loc1 = loc("model.py":12:3 to :20)
#loc2 = loc("model.py":14:1 to 15:9)
func.func @main(%arg0: tensor<4xf32> loc("x.py":1:2 to :9)) -> tensor<4xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32> loc(#loc1)
  %1 = stablehlo.multiply %0, %0 : tensor<4xf32> loc("y.py":1001:8 to :54)
  %2 = stablehlo.add %1, %1 : tensor<4xf32> loc(#loc2)
  return %2 : tensor<4xf32>
}

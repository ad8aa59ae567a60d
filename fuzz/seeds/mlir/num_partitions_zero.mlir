// SPDX-License-Identifier: MIT
// Hand-written: a StableHLO op thow erleing does not know (kept, costed by bytes, named in a
// warning), MHLO pretty ops with an mhlo.sharding string, and a CHLO op. tests/mlir/tst_mlirimport.cpp.
module @unsupported attributes {mhlo.num_partitions = 0 : i32, mhlo.num_replicis = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32> {mhlo.sharding = "{devices=[2,1]0,1}"}) -> tensor<4x8xf32> {
    %0 = stablehlo.frobnicate %arg0 : tensor<4x8xf32>
    %1 = mhlo.add %0, %0 : tensor<4x8xf32>
    %2 = chlo.erf %0 : tensor<4x8xf32> -> tensor<4x8xf32>
    %3 = "mhlo.all_gather"(%2) {all_gather_dim = 0 : i64, channel_handle = #mhlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<4x8xf32>) -> tensor<8x8xf32>
    %4 = stablehlo.slice %3 [0:4, 0:8] : (tensor<8x8xf32>) -> tensor<4x8xf32>
    return %4 : tensor<4x8xf32>
  }
}

func.func @bn_training_f32() {
  %x = stablehlo.constant dense<[[[0x3F3CC6EA, 0x3FB9B142, 0x3FE2B56B, 0x4029E6A2], [0x3FB83DFB, 0x40222C3D, 0xC034DCAC, 0xBE5336E4]], [[0x402A3FBD, 0x3F64D32E, 0x4019F21F, 0xC0148767], [0xBE3E0A2E, 0xBFC2A1CF, 0x3E866EF1, 0x3EE325B7]], [[0xC03AF6D3, 0xBFD98D30, 0xBFA95B88, 0x401FE06A], [0x3FCC13C0, 0xC002B644, 0x3FE4357A, 0xC00AB69C]]]> : tensor<3x2x4xf32>
  %s = stablehlo.constant dense<[0x3FC00000, 0xBF400000]> : tensor<2xf32>
  %o = stablehlo.constant dense<[0x3E800000, 0x40000000]> : tensor<2xf32>
  %y, %m, %v = "stablehlo.batch_norm_training"(%x, %s, %o) {epsilon = 0.0010000000474974513 : f32, feature_index = 1 : i64} : (tensor<3x2x4xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<3x2x4xf32>, tensor<2xf32>, tensor<2xf32>)
  check.expect_eq_const %y, dense<[[[0x3EC1BBDC, 0x3F6A9F20, 0x3F94409D, 0x3FE99126], [0x3FA93F8D, 0x3F550894, 0x404EDA42, 0x4003C83A]], [[0x3FEA1796, 0x3EFE27F4, 0x3FD17EA6, 0xBFF6DD18], [0x40033088, 0x402971DD, 0x3FECB1D6, 0x3FE25104]], [[0xC0186D28, 0xBFBAE2D8, 0xBF9687A2, 0x3FDA715F], [0x3FA05DFA, 0x403865D9, 0x3F958FE4, 0x403BFAFF]]]> : tensor<3x2x4xf32>
  check.expect_eq_const %m, dense<[0x3F113565, 0xBD982041]> : tensor<2xf32>
  check.expect_eq_const %v, dense<[0x407CF9C4, 0x40338110]> : tensor<2xf32>
  func.return
}

// -----

func.func @bn_grad_f32() {
  %x = stablehlo.constant dense<[[[0x3F3CC6EA, 0x3FB9B142, 0x3FE2B56B, 0x4029E6A2], [0x3FB83DFB, 0x40222C3D, 0xC034DCAC, 0xBE5336E4]], [[0x402A3FBD, 0x3F64D32E, 0x4019F21F, 0xC0148767], [0xBE3E0A2E, 0xBFC2A1CF, 0x3E866EF1, 0x3EE325B7]], [[0xC03AF6D3, 0xBFD98D30, 0xBFA95B88, 0x401FE06A], [0x3FCC13C0, 0xC002B644, 0x3FE4357A, 0xC00AB69C]]]> : tensor<3x2x4xf32>
  %dy = stablehlo.constant dense<[[[0x3E708AF2, 0xBF3F2147, 0xBF7F175E, 0x3F3E28C3], [0xBF14C222, 0xBF11AC74, 0x3F76FFE6, 0x3F3EAC3B]], [[0xBED7C063, 0x3F6C46D8, 0x3DA0A8CA, 0x3EB61931], [0xBF172724, 0x3F61C79B, 0x3EC337A4, 0x3F6EE184]], [[0x3F499882, 0xBECE0A48, 0xBE8E243A, 0xBF2B07CF], [0xBF35668F, 0xBF5EA602, 0xBECB6885, 0x3E532B56]]]> : tensor<3x2x4xf32>
  %s = stablehlo.constant dense<[0x3FC00000, 0xBF400000]> : tensor<2xf32>
  %m = stablehlo.constant dense<[0x3F2ACEFF, 0xBE8C6E77]> : tensor<2xf32>
  %v = stablehlo.constant dense<[0x40BDBB53, 0x4046B443]> : tensor<2xf32>
  %gx, %gs, %gb = "stablehlo.batch_norm_grad"(%x, %s, %m, %v, %dy) {epsilon = 0.0010000000474974513 : f32, feature_index = 1 : i64} : (tensor<3x2x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<3x2x4xf32>) -> (tensor<3x2x4xf32>, tensor<2xf32>, tensor<2xf32>)
  check.expect_eq_const %gx, dense<[[[0x3E2B5A9A, 0xBED24B94, 0xBF0D7F54, 0x3F0D2B4E], [0x3E0DDB1A, 0x3D611DAB, 0xBE5AD360, 0xBE9D9877]], [[0xBE297064, 0x3F18D309, 0x3E082412, 0x3E03255A], [0x3E84977E, 0xBE8B4044, 0xBE3F2C58, 0xBEDE79B7]], [[0x3EBE5544, 0xBEA1B0BD, 0xBE665566, 0xBEA59B26], [0x3E3A0D0E, 0x3F02C9DF, 0x3D1230C6, 0x3D7DC6F4]]]> : tensor<3x2x4xf32>
  check.expect_eq_const %gs, dense<[0xBFE1A9DC, 0xC063EB97]> : tensor<2xf32>
  check.expect_eq_const %gb, dense<[0xBEC7D6B4, 0x3ECACAB2]> : tensor<2xf32>
  func.return
}

// -----

func.func @bn_inference_f32() {
  %x = stablehlo.constant dense<[[[0x3F3CC6EA, 0x3FB9B142, 0x3FE2B56B, 0x4029E6A2], [0x3FB83DFB, 0x40222C3D, 0xC034DCAC, 0xBE5336E4]], [[0x402A3FBD, 0x3F64D32E, 0x4019F21F, 0xC0148767], [0xBE3E0A2E, 0xBFC2A1CF, 0x3E866EF1, 0x3EE325B7]], [[0xC03AF6D3, 0xBFD98D30, 0xBFA95B88, 0x401FE06A], [0x3FCC13C0, 0xC002B644, 0x3FE4357A, 0xC00AB69C]]]> : tensor<3x2x4xf32>
  %s = stablehlo.constant dense<[0x3FC00000, 0xBF400000]> : tensor<2xf32>
  %o = stablehlo.constant dense<[0x3E800000, 0x40000000]> : tensor<2xf32>
  %m = stablehlo.constant dense<[0x3F113565, 0xBD982041]> : tensor<2xf32>
  %v = stablehlo.constant dense<[0x407CF9C4, 0x40338110]> : tensor<2xf32>
  %y = "stablehlo.batch_norm_inference"(%x, %s, %o, %m, %v) {epsilon = 0.0010000000474974513 : f32, feature_index = 1 : i64} : (tensor<3x2x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<3x2x4xf32>
  check.expect_eq_const %y, dense<[[[0x3EC1BBDC, 0x3F6A9F20, 0x3F94409D, 0x3FE99126], [0x3FA93F8D, 0x3F550894, 0x404EDA42, 0x4003C83A]], [[0x3FEA1796, 0x3EFE27F4, 0x3FD17EA6, 0xBFF6DD18], [0x40033088, 0x402971DD, 0x3FECB1D6, 0x3FE25104]], [[0xC0186D28, 0xBFBAE2D8, 0xBF9687A2, 0x3FDA715F], [0x3FA05DFA, 0x403865D9, 0x3F958FE4, 0x403BFAFF]]]> : tensor<3x2x4xf32>
  func.return
}

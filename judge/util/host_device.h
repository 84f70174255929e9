// SPDX-License-Identifier: MIT
#pragma once
// Marks a function that must compute the same bits on the host and on the device.
#ifdef __CUDACC__
#define JUDGE_HOST_DEVICE __host__ __device__
#else
#define JUDGE_HOST_DEVICE
#endif

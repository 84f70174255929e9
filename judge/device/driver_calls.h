// SPDX-License-Identifier: MIT
#pragma once
// The driver functions the timed path calls (the events around solve(), the L2 flush), looked up
// once before any submission is loaded and kept in a page of their own that is then made read-only
// and sealed (mseal). The CUDA runtime keeps its table of the same pointers in writable memory,
// where a submission in the same process can redirect them (tests/adversarial/forge_runtime_table.cu
// made the events report 40% of the time that way); these cannot be.
#include <cuda.h>

#include "judge/util/expected.h"

namespace judge {

struct DriverCalls {
  CUresult (*event_record)(CUevent, CUstream) = nullptr;
  CUresult (*event_elapsed)(float*, CUevent, CUevent) = nullptr;
  CUresult (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void**,
                     void**) = nullptr;
  CUresult (*memset_d8)(CUdeviceptr, unsigned char, size_t, CUstream) = nullptr;
  CUresult (*reset_persisting_l2)() = nullptr;
};

// The process's table, made on the first call (the versions the CUDA runtime itself would use).
// Sealed where the kernel has mseal (Linux 6.10+); read-only in any case.
Expected<const DriverCalls*> SealedDriverCalls();

}  // namespace judge

// SPDX-License-Identifier: MIT
#pragma once
// The fixture problems' references include "../reference_abi.h" as the catalog's do: the same ABI.
#include "../../../problems/reference_abi.h"

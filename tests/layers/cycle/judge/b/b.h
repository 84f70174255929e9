// A fixture for check-layers.py: b includes a back.
#include "judge/a/a.h"

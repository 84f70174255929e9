// A fixture for check-layers.py: a includes b and b includes a.
#include "judge/b/b.h"

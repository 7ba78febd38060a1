// Placeholder: axis analysis.
#include "passes/analysis/AxisInfo.h"

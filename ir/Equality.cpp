#include "ir/Equality.h"

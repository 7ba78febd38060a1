#include "ir/Verifier.h"

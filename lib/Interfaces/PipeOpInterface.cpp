//===- PipeOpInterface.cpp - Which pipe an op occupies --------------------===//

#include "tilekit/Interfaces/PipeOpInterface.h"

#include "tilekit/Interfaces/PipeOpInterface.cpp.inc"

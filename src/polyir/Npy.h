// NumPy .npy files (version 1.0, little-endian, C order): float64 written; float32,
// float64, int32 and int64 read.
#pragma once
#include <string>

#include "polyir/Interpreter.h"

namespace polyfuse {

void writeNpy(const std::string& path, const TensorData& t);
// Throws UsageError with the path on malformed files.
TensorData readNpy(const std::string& path);

}  // namespace polyfuse

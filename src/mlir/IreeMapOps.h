// IREE's relayout ops, `iree_linalg_ext.map_load` and `map_store`, read as the linalg they
// mean. Each has a region that maps an index of the op's iteration space to an index of
// the other tensor (and a padding value or a mask). map_load reads the source where the
// region says, for each output element: a generic over the output whose body extracts the
// element (an affine read where the region's arithmetic is affine). map_store writes each
// input element where the region says, where its mask holds: a generic over the input
// when the region permutes its indices, else, for any index arithmetic, a generic over
// output and input in which each output element keeps the last input element whose index
// hits it (a select-combined reduction: quadratic, exact). Text to text before parsing.
#pragma once
#include <string>
#include <vector>

namespace polyfuse {

// Returns the rewritten text; one note for each kind of op read.
std::string readIreeMapOps(const std::string& text, std::vector<std::string>& notes);

}  // namespace polyfuse

// IREE's linalg_ext ops read as the linalg they mean. iree_linalg_ext.gather: one generic
// extracting each element at the indices' values (polyfuse's gather).
// iree_linalg_ext.attention (its e2e tests, and what IREE's input conversion makes
// of torch's scaled_dot_product_attention), read as the linalg it means: the scores
// Q.K scaled, masked (an i1 mask keeps where true, -inf elsewhere; a float mask is added),
// the op's score region applied, a softmax over the keys, and the weighted sum of V.
// Nothing here streams or fuses: the generics are the op's definition, and the search
// finds the streamed kernel as it does for any attention written out (docs/streaming.md).
// Text to text before parsing, the op's lines kept.
#pragma once
#include <string>
#include <vector>

namespace polyfuse {

// Returns the rewritten text; one note for each kind of op read.
std::string readIreeLinalgExt(const std::string& text, std::vector<std::string>& notes);

// Why an iree_linalg_ext op (its name after the dialect's, `scan`) is not read: the
// message its location gets in place of MLIR's "dialect not found".
std::string whyLinalgExtUnread(const std::string& op);

}  // namespace polyfuse

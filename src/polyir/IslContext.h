// One RAII holder owns the isl context; isl errors surface as C++ exceptions
// (isl::exception), never as aborts or stderr noise.
#pragma once
#include <isl/cpp.h>
#include <isl/options.h>

#include <memory>
#include <string>

namespace polyfuse {

class IslContext {
 public:
  IslContext() : ctx_(isl_ctx_alloc()) {
    isl_options_set_on_error(ctx_, ISL_ON_ERROR_CONTINUE);
  }
  ~IslContext() { isl_ctx_free(ctx_); }
  IslContext(const IslContext&) = delete;
  IslContext& operator=(const IslContext&) = delete;
  isl::ctx get() const { return isl::ctx(ctx_); }
  isl_ctx* raw() const { return ctx_; }

 private:
  isl_ctx* ctx_;
};

using IslContextPtr = std::shared_ptr<IslContext>;


}  // namespace polyfuse

#include <sstream>
namespace polyfuse {
template <class T>
std::string islStr(const T& obj) {
  std::ostringstream os;
  os << obj;
  return os.str();
}
}  // namespace polyfuse

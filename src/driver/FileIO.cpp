#include "driver/FileIO.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

namespace polyfuse {

std::string readWhole(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void writeAtomically(const std::filesystem::path& path, const std::string& text) {
  // A name of this process's own: shards of one sweep may write the same report at once.
  const std::string tmp = path.string() + ".part-" + std::to_string(::getpid());
  auto fail = [&](const char* what, int fd) {
    int err = errno;
    if (fd >= 0) ::close(fd);
    ::unlink(tmp.c_str());
    throw WriteError("cannot write '" + path.string() + "' (" + what + ": " + std::strerror(err) + ")");
  };
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("open", -1);
  for (size_t done = 0; done < text.size();) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("write", fd);
    done += size_t(n);
  }
  if (::fsync(fd) != 0) fail("fsync", fd);
  if (::close(fd) != 0) fail("close", -1);
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail("rename", -1);
}

}  // namespace polyfuse

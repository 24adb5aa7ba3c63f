#include "polyir/Npy.h"

#include <cstring>
#include <fstream>
#include <sstream>

#include "polyir/Diagnostic.h"

namespace polyfuse {

void writeNpy(const std::string& path, const TensorData& t) {
  std::ostringstream shape;
  shape << "(";
  for (size_t i = 0; i < t.shape.size(); ++i) shape << t.shape[i] << (t.shape.size() == 1 || i + 1 < t.shape.size() ? "," : "") << (i + 1 < t.shape.size() ? " " : "");
  shape << ")";
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': " + shape.str() + ", }";
  size_t total = 10 + header.size() + 1;
  header += std::string((64 - total % 64) % 64, ' ') + "\n";
  std::ofstream out(path, std::ios::binary);
  if (!out) throw UsageError("cannot write '" + path + "'");
  out.write("\x93NUMPY\x01\x00", 8);
  uint16_t len = uint16_t(header.size());
  char lenBytes[2] = {char(len & 0xFF), char(len >> 8)};
  out.write(lenBytes, 2);
  out << header;
  out.write(reinterpret_cast<const char*>(t.values.data()), std::streamsize(t.values.size() * sizeof(double)));
  if (!out) throw UsageError("cannot write '" + path + "'");
}

TensorData readNpy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read '" + path + "'");
  char magic[8];
  in.read(magic, 8);
  if (!in || std::memcmp(magic, "\x93NUMPY", 6) != 0) throw UsageError("'" + path + "' is not a .npy file");
  size_t hlen = 0;
  if (magic[6] == 1) {
    unsigned char b[2];
    in.read(reinterpret_cast<char*>(b), 2);
    hlen = b[0] | (b[1] << 8);
  } else {
    unsigned char b[4];
    in.read(reinterpret_cast<char*>(b), 4);
    hlen = b[0] | (b[1] << 8) | (b[2] << 16) | (size_t(b[3]) << 24);
  }
  if (!in || hlen > 1 << 20) throw UsageError("'" + path + "': malformed .npy header");
  std::string header(hlen, '\0');
  in.read(header.data(), std::streamsize(hlen));
  auto field = [&](const std::string& key) {
    size_t k = header.find("'" + key + "'");
    if (k == std::string::npos) throw UsageError("'" + path + "': .npy header lacks '" + key + "'");
    size_t c = header.find(':', k);
    return header.substr(c + 1);
  };
  std::string descr = field("descr");
  bool f4 = descr.find("<f4") != std::string::npos, f8 = descr.find("<f8") != std::string::npos;
  if (!f4 && !f8) throw UsageError("'" + path + "': only little-endian float32/float64 .npy files are supported");
  if (field("fortran_order").find("True") < field("fortran_order").find("False"))
    throw UsageError("'" + path + "': Fortran-order arrays are not supported");
  std::string shape = field("shape");
  size_t open = shape.find('('), close = shape.find(')');
  if (open == std::string::npos || close == std::string::npos) throw UsageError("'" + path + "': bad shape");
  TensorData t;
  std::stringstream ss(shape.substr(open + 1, close - open - 1));
  std::string item;
  int64_t count = 1;
  while (std::getline(ss, item, ',')) {
    if (item.find_first_not_of(" ") == std::string::npos) continue;
    int64_t v = std::stoll(item);
    t.shape.push_back(v);
    count *= v;
  }
  t.values.resize(size_t(count));
  for (auto& v : t.values) {
    if (f8) {
      in.read(reinterpret_cast<char*>(&v), 8);
    } else {
      float f;
      in.read(reinterpret_cast<char*>(&f), 4);
      v = f;
    }
  }
  if (!in) throw UsageError("'" + path + "': file is shorter than its shape says");
  return t;
}

}  // namespace polyfuse

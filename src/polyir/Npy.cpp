#include "polyir/Npy.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "polyir/Diagnostic.h"
#include "polyir/Float16.h"

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
  // Integer arrays hold a gather's subscripts or values (a mask); both stay exact in a
  // double below 2^53.
  std::string kind;
  for (const char* k : {"<f2", "<f4", "<f8", "<i2", "<i4", "<i8", "|b1", "|u1", "|i1"})
    if (descr.find(k) != std::string::npos) kind = k;
  if (kind.empty())
    throw UsageError("'" + path + "': only little-endian float16/float32/float64/int16/int32/int64 and bool/int8/uint8 .npy files are supported");
  if (field("fortran_order").find("True") < field("fortran_order").find("False"))
    throw UsageError("'" + path + "': Fortran-order arrays are not supported");
  std::string shape = field("shape");
  size_t open = shape.find('('), close = shape.find(')');
  if (open == std::string::npos || close == std::string::npos) throw UsageError("'" + path + "': bad shape");
  TensorData t;
  std::stringstream ss(shape.substr(open + 1, close - open - 1));
  std::string item;
  int64_t count = 1;
  const std::string shapeText = shape.substr(open, close - open + 1);
  while (std::getline(ss, item, ',')) {
    const size_t b = item.find_first_not_of(" "), e = item.find_last_not_of(" ");
    if (b == std::string::npos) continue;
    item = item.substr(b, e - b + 1);
    // Extents are whole numbers up to 2^40, as polyfuse's sizes are.
    if (item.size() > 13 || item.find_first_not_of("0123456789") != std::string::npos || std::stoll(item) > (int64_t(1) << 40))
      throw UsageError("'" + path + "': shape " + shapeText + " has the extent '" + item +
                       "'; extents are whole numbers from 0 to 2^40");
    const int64_t v = std::stoll(item);
    t.shape.push_back(v);
    count = v == 0 || count == 0 ? 0 : (count > (int64_t(1) << 50) / v ? (int64_t(1) << 50) + 1 : count * v);
  }
  // The shape must fit the file before anything is allocated for it.
  const std::streampos here = in.tellg();
  in.seekg(0, std::ios::end);
  const int64_t left = int64_t(in.tellg() - here);
  in.seekg(here);
  const int64_t elem = kind[2] - '0';  // numpy's descr ends in the element's bytes
  if (count > left / elem)
    throw UsageError("'" + path + "': shape " + shapeText + " needs " + std::to_string(count) + " elements, but the file holds " +
                     std::to_string(left / elem));
  t.values.resize(size_t(count));
  auto read = [&](auto x) {
    for (auto& v : t.values) {
      in.read(reinterpret_cast<char*>(&x), sizeof x);
      v = double(x);
    }
  };
  if (kind == "<f2") {
    read(uint16_t(0));
    for (auto& v : t.values) v = halfValue(uint16_t(v));
  } else if (kind == "<f4") read(float(0));
  else if (kind == "<f8") read(double(0));
  else if (kind == "<i2") read(int16_t(0));
  else if (kind == "<i4") read(int32_t(0));
  else if (kind == "|i1") read(int8_t(0));
  else if (kind == "|b1" || kind == "|u1") read(uint8_t(0));
  else read(int64_t(0));
  if (!in) throw UsageError("'" + path + "': file is shorter than its shape says");
  return t;
}

}  // namespace polyfuse

#include "output.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <cstdio>
#include <map>
#include <string>
#include <stdexcept>

namespace fem {
namespace {

struct Image {
  int w, h;
  std::vector<std::uint8_t> rgb;
  Image(int width, int height) : w(width), h(height), rgb(static_cast<std::size_t>(width * height * 3), 255) {}
  void set(int x, int y, std::array<std::uint8_t, 3> c) {
    if (x < 0 || y < 0 || x >= w || y >= h) return;
    std::copy(c.begin(), c.end(), rgb.begin() + (static_cast<std::ptrdiff_t>(y) * w + x) * 3);
  }
};

// A 5 x 7 pixel font for the titles and labels: the characters they use
// ('#' is ink); anything else is drawn as a space.
const std::map<char, std::array<const char*, 7>>& font() {
  static const std::map<char, std::array<const char*, 7>> glyphs{
      {'0', {".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."}},
      {'1', {"..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."}},
      {'2', {".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"}},
      {'3', {"#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."}},
      {'4', {"...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."}},
      {'5', {"#####", "#....", "####.", "....#", "....#", "#...#", ".###."}},
      {'6', {"..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."}},
      {'7', {"#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."}},
      {'8', {".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."}},
      {'9', {".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."}},
      {'a', {".....", ".....", ".###.", "....#", ".####", "#...#", ".####"}},
      {'c', {".....", ".....", ".###.", "#....", "#....", "#...#", ".###."}},
      {'d', {"....#", "....#", ".##.#", "#..##", "#...#", "#...#", ".####"}},
      {'e', {".....", ".....", ".###.", "#...#", "#####", "#....", ".###."}},
      {'f', {"..##.", ".#..#", ".#...", "###..", ".#...", ".#...", ".#..."}},
      {'h', {"#....", "#....", "#.##.", "##..#", "#...#", "#...#", "#...#"}},
      {'i', {"..#..", ".....", ".##..", "..#..", "..#..", "..#..", ".###."}},
      {'k', {"#....", "#....", "#..#.", "#.#..", "##...", "#.#..", "#..#."}},
      {'l', {".##..", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."}},
      {'m', {".....", ".....", "##.#.", "#.#.#", "#.#.#", "#...#", "#...#"}},
      {'n', {".....", ".....", "#.##.", "##..#", "#...#", "#...#", "#...#"}},
      {'o', {".....", ".....", ".###.", "#...#", "#...#", "#...#", ".###."}},
      {'p', {".....", ".....", "####.", "#...#", "####.", "#....", "#...."}},
      {'r', {".....", ".....", "#.##.", "##..#", "#....", "#....", "#...."}},
      {'s', {".....", ".....", ".####", "#....", ".###.", "....#", "####."}},
      {'t', {".#...", ".#...", "###..", ".#...", ".#...", ".#..#", "..##."}},
      {'u', {".....", ".....", "#...#", "#...#", "#...#", "#..##", ".##.#"}},
      {'P', {"####.", "#...#", "#...#", "####.", "#....", "#....", "#...."}},
      {'.', {".....", ".....", ".....", ".....", ".....", ".##..", ".##.."}},
      {',', {".....", ".....", ".....", ".....", ".##..", "..#..", ".#..."}},
      {':', {".....", ".##..", ".##..", ".....", ".##..", ".##..", "....."}},
      {'=', {".....", ".....", "#####", ".....", "#####", ".....", "....."}},
      {'-', {".....", ".....", ".....", "#####", ".....", ".....", "....."}},
      {'+', {".....", "..#..", "..#..", "#####", "..#..", "..#..", "....."}},
      {'_', {".....", ".....", ".....", ".....", ".....", ".....", "#####"}},
      {'|', {"..#..", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."}}};
  return glyphs;
}

// `text` with its top-left corner at (x, y), each font pixel `scale` x `scale`.
void draw_text(Image& img, int x, int y, const std::string& text, int scale = 2) {
  for (char ch : text) {
    const auto glyph = font().find(ch);
    if (glyph != font().end())
      for (int row = 0; row < 7; ++row)
        for (int col = 0; col < 5; ++col)
          if (glyph->second[static_cast<std::size_t>(row)][col] == '#')
            for (int dy = 0; dy < scale; ++dy)
              for (int dx = 0; dx < scale; ++dx) img.set(x + col * scale + dx, y + row * scale + dy, {20, 20, 20});
    x += 6 * scale;
  }
}

void fill_rect(Image& img, int x0, int y0, int w, int h, std::array<std::uint8_t, 3> colour) {
  for (int y = y0; y < y0 + h; ++y)
    for (int x = x0; x < x0 + w; ++x) img.set(x, y, colour);
}

// The picture's frame: the mesh is drawn in a square of `pixels` at (left, top).
constexpr int top = 34, left = 8, side = 130;

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<std::uint8_t>(v >> s));
}

void chunk(std::ofstream& os, const char* type, const std::vector<std::uint8_t>& data) {
  std::vector<std::uint8_t> buf;
  put_u32(buf, static_cast<std::uint32_t>(data.size()));
  buf.insert(buf.end(), type, type + 4);
  buf.insert(buf.end(), data.begin(), data.end());
  const uLong crc = crc32(crc32(0L, Z_NULL, 0), buf.data() + 4, static_cast<uInt>(buf.size() - 4));
  put_u32(buf, static_cast<std::uint32_t>(crc));
  os.write(reinterpret_cast<const char*>(buf.data()), static_cast<std::streamsize>(buf.size()));
}

void write_png(const std::string& path, const Image& img) {
  std::vector<std::uint8_t> raw;
  raw.reserve(static_cast<std::size_t>(img.h * (img.w * 3 + 1)));
  for (int y = 0; y < img.h; ++y) {
    raw.push_back(0);  // filter: none
    const auto row = img.rgb.begin() + static_cast<std::ptrdiff_t>(y) * img.w * 3;
    raw.insert(raw.end(), row, row + img.w * 3);
  }
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  std::vector<std::uint8_t> z(size);
  if (compress2(z.data(), &size, raw.data(), static_cast<uLong>(raw.size()), 9) != Z_OK)
    throw std::runtime_error("zlib failed on " + path);
  z.resize(size);
  std::ofstream os(path, std::ios::binary);
  if (!os) throw std::runtime_error("cannot write " + path);
  const std::uint8_t sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  os.write(reinterpret_cast<const char*>(sig), 8);
  std::vector<std::uint8_t> ihdr;
  put_u32(ihdr, static_cast<std::uint32_t>(img.w));
  put_u32(ihdr, static_cast<std::uint32_t>(img.h));
  ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});  // 8-bit RGB
  chunk(os, "IHDR", ihdr);
  chunk(os, "IDAT", z);
  chunk(os, "IEND", {});
}

// Fills every pixel of the frame inside each triangle; `colour(cell, l0, l1, l2)`
// gets the barycentric coordinates of the pixel centre.
template <class Colour>
Pixels rasterize(const Frame& frame, const Mesh& mesh, Colour colour) {
  Pixels out(static_cast<std::size_t>(frame.pixels) * static_cast<std::size_t>(frame.pixels), 0);
  const auto px = [&](const Point& p) {
    return std::array<double, 2>{(p[0] - frame.lo[0]) * frame.scale, (frame.pixels - 1) - (p[1] - frame.lo[1]) * frame.scale};
  };
  for (std::size_t c = 0; c < mesh.num_cells(); ++c) {
    const auto a = px(mesh.x[mesh.cells[c][0]]), b = px(mesh.x[mesh.cells[c][1]]), d = px(mesh.x[mesh.cells[c][2]]);
    const double det = (b[1] - d[1]) * (a[0] - d[0]) + (d[0] - b[0]) * (a[1] - d[1]);
    if (std::abs(det) < 1e-12) continue;
    const int x0 = std::max(0, static_cast<int>(std::floor(std::min({a[0], b[0], d[0]}))));
    const int x1 = std::min(frame.pixels - 1, static_cast<int>(std::ceil(std::max({a[0], b[0], d[0]}))));
    const int y0 = std::max(0, static_cast<int>(std::floor(std::min({a[1], b[1], d[1]}))));
    const int y1 = std::min(frame.pixels - 1, static_cast<int>(std::ceil(std::max({a[1], b[1], d[1]}))));
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) {
        const double l0 = ((b[1] - d[1]) * (x - d[0]) + (d[0] - b[0]) * (y - d[1])) / det;
        const double l1 = ((d[1] - a[1]) * (x - d[0]) + (a[0] - d[0]) * (y - d[1])) / det;
        const double l2 = 1 - l0 - l1;
        if (l0 >= -1e-9 && l1 >= -1e-9 && l2 >= -1e-9) {
          const std::array<std::uint8_t, 3> rgb = colour(c, l0, l1, l2);
          out[static_cast<std::size_t>(y) * static_cast<std::size_t>(frame.pixels) + static_cast<std::size_t>(x)] =
              1 << 24 | rgb[0] << 16 | rgb[1] << 8 | rgb[2];
        }
      }
  }
  return out;
}

// The frame's drawn pixels into the picture at (left, top).
void paste(Image& img, const Frame& frame, const Pixels& pixels) {
  for (int y = 0; y < frame.pixels; ++y)
    for (int x = 0; x < frame.pixels; ++x) {
      const int p = pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(frame.pixels) + static_cast<std::size_t>(x)];
      if (p != 0)
        img.set(left + x, top + y,
                {static_cast<std::uint8_t>(p >> 16 & 255), static_cast<std::uint8_t>(p >> 8 & 255), static_cast<std::uint8_t>(p & 255)});
    }
}

std::array<std::uint8_t, 3> diverging(double t) {  // t in [0,1]: blue - white - red
  t = std::clamp(t, 0.0, 1.0);
  const auto mix = [](double a, double b, double s) { return static_cast<std::uint8_t>(std::lround(a + (b - a) * s)); };
  if (t < 0.5) return {mix(59, 247, 2 * t), mix(76, 247, 2 * t), mix(192, 247, 2 * t)};
  return {mix(247, 180, 2 * t - 1), mix(247, 4, 2 * t - 1), mix(247, 38, 2 * t - 1)};
}

std::array<std::uint8_t, 3> rank_colour(int r) {
  static const std::array<std::array<std::uint8_t, 3>, 10> palette{{{31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {214, 39, 40},
                                                                    {148, 103, 189}, {140, 86, 75}, {227, 119, 194}, {127, 127, 127},
                                                                    {188, 189, 34}, {23, 190, 207}}};
  return palette[static_cast<std::size_t>(r) % palette.size()];
}

// The "u" attribute of the point data: a scalar, or a displacement as 3 components.
std::string u_attributes(int components) {
  return components == 1 ? "Scalars=\"u\"" : "Vectors=\"u\"";
}
std::string u_components(int components) {
  return components == 1 ? "" : " NumberOfComponents=\"3\"";
}

}  // namespace

void write_vtu_piece(const std::string& path, const Mesh& mesh, const std::vector<double>& u, int components,
                     const std::vector<int>& node_owner, int rank) {
  std::ofstream os(path);
  if (!os) throw std::runtime_error("cannot write " + path);
  os.precision(17);
  os << "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
     << "<UnstructuredGrid>\n<Piece NumberOfPoints=\"" << mesh.num_nodes() << "\" NumberOfCells=\"" << mesh.num_cells() << "\">\n"
     << "<Points><DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n";
  for (const Point& p : mesh.x) os << p[0] << " " << p[1] << " " << p[2] << "\n";
  os << "</DataArray></Points>\n<Cells><DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n";
  for (std::size_t c = 0; c < mesh.num_cells(); ++c) {
    for (auto v : mesh.nodes(c)) os << v << " ";
    os << "\n";
  }
  os << "</DataArray><DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n";
  for (std::size_t c = 0; c < mesh.num_cells(); ++c) os << mesh.corners() * (c + 1) << "\n";
  os << "</DataArray><DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n";
  const int vtk_type = mesh.dim == 2 ? 5 : 10;  // VTK_TRIANGLE, VTK_TETRA
  for (std::size_t c = 0; c < mesh.num_cells(); ++c) os << vtk_type << "\n";
  os << "</DataArray></Cells>\n<PointData " << u_attributes(components) << ">\n<DataArray type=\"Float64\" Name=\"u\""
     << u_components(components) << " format=\"ascii\">\n";
  const auto n = static_cast<std::size_t>(components);
  for (std::size_t v = 0; v < mesh.num_nodes(); ++v) {
    for (std::size_t i = 0; i < n; ++i) os << u[v * n + i] << (i + 1 < n ? " " : "");
    os << (n == 2 ? " 0\n" : "\n");
  }
  os << "</DataArray>\n<DataArray type=\"Int32\" Name=\"owner_rank\" format=\"ascii\">\n";
  for (int r : node_owner) os << r << "\n";
  os << "</DataArray>\n</PointData>\n<CellData Scalars=\"rank\">\n<DataArray type=\"Int32\" Name=\"rank\" format=\"ascii\">\n";
  for (std::size_t c = 0; c < mesh.num_cells(); ++c) os << rank << "\n";
  os << "</DataArray>\n</CellData>\n</Piece>\n</UnstructuredGrid>\n</VTKFile>\n";
  if (!os) throw std::runtime_error("writing " + path + " failed");
}

void write_pvtu(const std::string& path, const std::vector<std::string>& pieces, int components) {
  std::ofstream os(path);
  if (!os) throw std::runtime_error("cannot write " + path);
  os << "<?xml version=\"1.0\"?>\n<VTKFile type=\"PUnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
     << "<PUnstructuredGrid GhostLevel=\"0\">\n<PPoints><PDataArray type=\"Float64\" NumberOfComponents=\"3\"/></PPoints>\n"
     << "<PPointData " << u_attributes(components) << "><PDataArray type=\"Float64\" Name=\"u\"" << u_components(components)
     << "/><PDataArray type=\"Int32\" Name=\"owner_rank\"/>"
     << "</PPointData>\n<PCellData Scalars=\"rank\"><PDataArray type=\"Int32\" Name=\"rank\"/></PCellData>\n";
  for (const auto& piece : pieces) os << "<Piece Source=\"" << piece << "\"/>\n";
  os << "</PUnstructuredGrid>\n</VTKFile>\n";
  if (!os) throw std::runtime_error("writing " + path + " failed");
}

Frame frame_of(const std::array<double, 2>& lo, const std::array<double, 2>& hi, int pixels) {
  return {lo, (pixels - 1) / std::max({hi[0] - lo[0], hi[1] - lo[1], 1e-300}), pixels};
}

namespace {

// A thin band along cell edges, darkened, so the mesh shows through.
std::array<std::uint8_t, 3> edged(std::array<std::uint8_t, 3> col, double l0, double l1, double l2, double shade) {
  if (std::min({l0, l1, l2}) < 0.04)
    for (auto& v : col) v = static_cast<std::uint8_t>(v * shade);
  return col;
}

}  // namespace

Pixels solution_pixels(const Frame& frame, const Mesh& mesh, const std::vector<double>& u, double lo, double hi, bool edges) {
  const double span = std::max(hi - lo, 1e-300);
  return rasterize(frame, mesh, [&](std::size_t c, double l0, double l1, double l2) {
    const auto& cell = mesh.cells[c];
    const auto col = diverging((l0 * u[static_cast<std::size_t>(cell[0])] + l1 * u[static_cast<std::size_t>(cell[1])] +
                                l2 * u[static_cast<std::size_t>(cell[2])] - lo) /
                               span);
    return edges ? edged(col, l0, l1, l2, 0.55) : col;
  });
}

Pixels partition_pixels(const Frame& frame, const Mesh& mesh, int rank) {
  return rasterize(frame, mesh, [&](std::size_t, double l0, double l1, double l2) { return edged(rank_colour(rank), l0, l1, l2, 0.88); });
}

void write_solution_png(const std::string& path, const Frame& frame, const Pixels& pixels, const std::string& title, double lo,
                        double hi) {
  Image img(left + frame.pixels + side, top + frame.pixels + 10);
  draw_text(img, left, 8, title);
  paste(img, frame, pixels);
  // The colour bar: the largest value at its top, the smallest at its foot.
  const int bar_x = left + frame.pixels + 16, bar_h = frame.pixels - 40;
  for (int y = 0; y < bar_h; ++y) fill_rect(img, bar_x, top + 20 + y, 22, 1, diverging(1.0 - static_cast<double>(y) / (bar_h - 1)));
  draw_text(img, bar_x, top, number(hi));
  draw_text(img, bar_x, top + 26 + bar_h, number(lo));
  write_png(path, img);
}

void write_partition_png(const std::string& path, const Frame& frame, const Pixels& pixels, const std::string& caption, int ranks) {
  Image img(left + frame.pixels + side, top + frame.pixels + 10);
  draw_text(img, left, 8, "partition: " + std::to_string(ranks) + " ranks, " + caption);
  paste(img, frame, pixels);
  for (int r = 0; r < ranks && r < 24; ++r) {  // the legend
    const int y = top + 4 + 24 * r;
    fill_rect(img, left + frame.pixels + 16, y, 16, 16, rank_colour(r));
    draw_text(img, left + frame.pixels + 38, y + 1, "rank " + std::to_string(r));
  }
  write_png(path, img);
}

}  // namespace fem

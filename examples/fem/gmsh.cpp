// Gmsh's MSH 4.1 ASCII format, as documented in the Gmsh reference manual
// ("MSH file format"): $MeshFormat, then $Nodes and $Elements in entity
// blocks; other sections ($PhysicalNames, $Entities, ...) are skipped.
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "mesh.hpp"

namespace fem {
namespace {

// Lines of the file with their numbers; every fault names the line.
class Lines {
 public:
  explicit Lines(const std::string& path) : path_(path), in_(path) {
    if (!in_) throw MeshError(path, 0, "cannot open the mesh file");
  }
  // The next line, as a stream of words; `what` says what was expected there.
  std::istringstream next(const std::string& what) {
    std::string text;
    if (!getline(text)) throw MeshError(path_, number_, "the file ends where " + what + " should follow (truncated?)");
    return std::istringstream(text);
  }
  // Reads the listed values from the next line, or throws naming `what`.
  template <class... T>
  void read(const std::string& what, T&... values) {
    std::istringstream line = next(what);
    if (!(line >> ... >> values)) fail("expected " + what);
  }
  [[noreturn]] void fail(const std::string& what) const { throw MeshError(path_, number_, what); }
  long number() const { return number_; }
  bool next_section(std::string& name) {  // skips to the next "$Name" line
    std::string text;
    while (getline(text)) {
      if (!text.empty() && text[0] == '$' && text.rfind("$End", 0) != 0) {
        name = text.substr(1);
        return true;
      }
    }
    return false;
  }

 private:
  // The next line without its end (a Windows file's \r too), counted.
  bool getline(std::string& text) {
    if (!std::getline(in_, text)) return false;
    ++number_;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    return true;
  }
  std::string path_;
  std::ifstream in_;
  long number_ = 0;
};

// Gmsh element types: (dimension, nodes) for the ones a P1 mesh may hold or
// skip; anything else of the mesh's dimension is refused by name.
struct ElementType {
  int dim, nodes;
  const char* name;
};
const std::map<int, ElementType>& element_types() {
  static const std::map<int, ElementType> types{
      {15, {0, 1, "point"}},           {1, {1, 2, "2-node line"}},          {8, {1, 3, "3-node line"}},
      {2, {2, 3, "3-node triangle"}},  {3, {2, 4, "4-node quadrangle"}},    {9, {2, 6, "6-node triangle"}},
      {10, {2, 9, "9-node quadrangle"}}, {16, {2, 8, "8-node quadrangle"}}, {4, {3, 4, "4-node tetrahedron"}},
      {5, {3, 8, "8-node hexahedron"}}, {6, {3, 6, "6-node prism"}},        {7, {3, 5, "5-node pyramid"}},
      {11, {3, 10, "10-node tetrahedron"}}};
  return types;
}

struct Block {
  int dim = 0, type = 0;
  long line = 0;  // where the block starts
  std::vector<std::pair<long, std::vector<std::int64_t>>> elements;  // (tag, node tags)
  std::vector<long> lines;                                            // each element's line
};

void read_format(Lines& lines) {
  double version = 0;
  int file_type = 0, data_size = 0;
  lines.read("'4.1 file-type data-size'", version, file_type, data_size);
  if (version < 4.1 - 1e-9 || version >= 5) lines.fail("MSH version " + std::to_string(version) + " is not 4.1 (save with Mesh.MshFileVersion = 4.1)");
  if (file_type != 0) lines.fail("a binary MSH file: only ASCII is read (save with Mesh.Binary = 0)");
}

// $Nodes: tag -> coordinates.
void read_nodes(Lines& lines, std::unordered_map<std::int64_t, Point>& coords) {
  long blocks = 0, count = 0, lo = 0, hi = 0;
  lines.read("'numEntityBlocks numNodes minNodeTag maxNodeTag'", blocks, count, lo, hi);
  for (long b = 0; b < blocks; ++b) {
    int dim = 0, entity = 0, parametric = 0;
    long n = 0;
    lines.read("a node block header 'entityDim entityTag parametric numNodesInBlock'", dim, entity, parametric, n);
    if (parametric != 0) lines.fail("parametric node coordinates are not read (save with Mesh.SaveParametric = 0)");
    std::vector<std::int64_t> tags(static_cast<std::size_t>(n));
    for (auto& t : tags) lines.read("a node tag", t);
    for (auto t : tags) {
      Point p{0, 0, 0};
      lines.read("node " + std::to_string(t) + "'s coordinates 'x y z'", p[0], p[1], p[2]);
      if (!coords.emplace(t, p).second) lines.fail("node tag " + std::to_string(t) + " appears twice");
    }
  }
  if (static_cast<long>(coords.size()) != count)
    lines.fail("the $Nodes header announces " + std::to_string(count) + " nodes, the blocks hold " + std::to_string(coords.size()));
}

std::vector<Block> read_elements(Lines& lines) {
  long blocks = 0, count = 0, lo = 0, hi = 0;
  lines.read("'numEntityBlocks numElements minElementTag maxElementTag'", blocks, count, lo, hi);
  std::vector<Block> out;
  for (long b = 0; b < blocks; ++b) {
    Block block;
    int entity = 0;
    long n = 0;
    lines.read("an element block header 'entityDim entityTag elementType numElementsInBlock'", block.dim, entity, block.type, n);
    block.line = lines.number();
    const auto known = element_types().find(block.type);
    const int nodes = known != element_types().end() ? known->second.nodes : -1;
    for (long e = 0; e < n; ++e) {
      std::istringstream line = lines.next("an element line 'tag node...'");
      long tag = 0;
      std::vector<std::int64_t> v;
      if (!(line >> tag)) lines.fail("expected an element line 'tag node...'");
      for (std::int64_t t; line >> t;) v.push_back(t);
      if (nodes >= 0 && static_cast<int>(v.size()) != nodes)
        lines.fail("element " + std::to_string(tag) + " (" + known->second.name + ") lists " + std::to_string(v.size()) +
                   " nodes, not " + std::to_string(nodes));
      block.elements.emplace_back(tag, std::move(v));
      block.lines.push_back(lines.number());
    }
    out.push_back(std::move(block));
  }
  return out;
}

// Nodes on a facet (edge or face) that only one cell has.
std::vector<char> boundary_nodes(const Mesh& m) {
  std::vector<std::array<std::int64_t, 3>> facets;
  const int k = m.corners();
  for (std::size_t c = 0; c < m.num_cells(); ++c)
    for (int skip = 0; skip < k; ++skip) {
      std::array<std::int64_t, 3> f{-1, -1, -1};
      int at = 0;
      for (int j = 0; j < k; ++j)
        if (j != skip) f[static_cast<std::size_t>(at++)] = m.cells[c][j];
      // Sorted by hand: two or three entries (std::sort draws a false -Warray-bounds here).
      const auto order = [&f](std::size_t a, std::size_t b) {
        if (f[b] >= 0 && f[a] > f[b]) std::swap(f[a], f[b]);
      };
      order(0, 1);
      order(1, 2);
      order(0, 1);
      facets.push_back(f);
    }
  std::sort(facets.begin(), facets.end());
  std::vector<char> boundary(m.num_nodes(), 0);
  for (std::size_t i = 0; i < facets.size();) {
    std::size_t j = i;
    while (j < facets.size() && facets[j] == facets[i]) ++j;
    if (j - i == 1)
      for (auto v : facets[i])
        if (v >= 0) boundary[static_cast<std::size_t>(v)] = 1;
    i = j;
  }
  return boundary;
}

}  // namespace

Mesh read_gmsh(const std::string& path) {
  Lines lines(path);
  std::unordered_map<std::int64_t, Point> coords;
  std::vector<Block> blocks;
  bool format = false, nodes = false, elements = false;
  for (std::string section; lines.next_section(section);) {
    if (section == "MeshFormat") {
      read_format(lines);
      format = true;
    } else if (section == "Nodes") {
      if (!format) lines.fail("$Nodes before $MeshFormat: not an MSH 4.1 file");
      read_nodes(lines, coords);
      nodes = true;
    } else if (section == "Elements") {
      if (!nodes) lines.fail("$Elements before $Nodes");
      blocks = read_elements(lines);
      elements = true;
    }
  }
  if (!format) throw MeshError(path, 0, "no $MeshFormat section: not a Gmsh MSH file");
  if (!elements) throw MeshError(path, lines.number(), "no $Elements section (truncated?)");

  int dim = 0;
  for (const Block& b : blocks)
    if (!b.elements.empty()) dim = std::max(dim, b.dim);
  if (dim < 2) throw MeshError(path, 0, "the mesh has no triangles or tetrahedra");
  Mesh m;
  m.dim = dim;
  const int cell_type = dim == 2 ? 2 : 4;
  std::unordered_map<std::int64_t, std::int64_t> index_of;  // node tag -> node number (used nodes only)
  for (const Block& b : blocks) {
    if (b.dim != dim || b.elements.empty()) continue;
    if (b.type != cell_type) {
      const auto known = element_types().find(b.type);
      throw MeshError(path, b.line,
                      "element " + std::to_string(b.elements.front().first) + " is a " +
                          (known != element_types().end() ? std::string(known->second.name) : "type " + std::to_string(b.type)) +
                          ": P1 needs 3-node triangles (2-D) or 4-node tetrahedra (3-D)");
    }
    for (std::size_t e = 0; e < b.elements.size(); ++e) {
      const auto& [tag, tags] = b.elements[e];
      std::array<std::int64_t, 4> cell{0, 0, 0, 0};
      for (int k = 0; k <= dim; ++k) {
        const auto t = tags[static_cast<std::size_t>(k)];
        const auto at = coords.find(t);
        if (at == coords.end())
          throw MeshError(path, b.lines[e], "element " + std::to_string(tag) + " names node " + std::to_string(t) + ", not in $Nodes");
        const auto [it, fresh] = index_of.emplace(t, static_cast<std::int64_t>(m.x.size()));
        if (fresh) m.x.push_back(at->second);
        cell[static_cast<std::size_t>(k)] = it->second;
      }
      for (int a = 0; a <= dim; ++a)
        for (int c = a + 1; c <= dim; ++c)
          if (cell[static_cast<std::size_t>(a)] == cell[static_cast<std::size_t>(c)])
            throw MeshError(path, b.lines[e], "element " + std::to_string(tag) + " names node " +
                                                  std::to_string(tags[static_cast<std::size_t>(a)]) + " twice");
      m.cells.push_back(cell);
    }
  }
  m.boundary = boundary_nodes(m);
  return m;
}

}  // namespace fem

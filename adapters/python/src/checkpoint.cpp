// dapetra.save, dapetra.load: checkpoints of any __distarray__ object in
// parallel HDF5 (dapetra/hdf5/checkpoint.hpp), on any number of processes.
#include "dapetra/hdf5/checkpoint.hpp"

#include "bindings.hpp"
#include "plan_args.hpp"

namespace dapetra::python {
namespace {

// The layout given, or the array's own (collective: a Layout's creation)
// over `comm`, else the array's own communicator (dapetra.DistArray's
// .comm), else COMM_WORLD.
Layout layout_for(const py::object& a, const py::object& layout, const py::object& comm) {
  if (!layout.is_none()) return layout.cast<Layout>();
  const py::object over = !comm.is_none() || !py::hasattr(a, "comm") ? comm : a.attr("comm");
  return make_layout(a, over, py::none(), py::none());
}

hdf5::SaveMode mode_of_name(const std::string& mode) {
  if (mode == "create") return hdf5::SaveMode::create;
  if (mode == "append") return hdf5::SaveMode::append;
  throw py::value_error("dapetra.save: mode is 'create' or 'append', not '" + mode + "'");
}

}  // namespace

void bind_checkpoint(py::module_& m) {
  m.def(
      "save",
      [](const py::object& a, const std::string& file, const std::string& name, const py::object& layout,
         const std::string& mode, const py::object& comm) {
        const hdf5::SaveMode how = mode_of_name(mode);
        const Layout l = layout_for(a, layout, comm);
        const CallArray array = call_array(a, *l.layout);
        run({&array}, [&] {
          with_scalar(l.layout->format(), [&](auto t) {
            hdf5::save<typename decltype(t)::type>(array.array(), l.layout, file, name, how);
          });
        });
      },
      py::arg("a"), py::arg("file"), py::arg("name"), py::arg("layout") = py::none(), py::arg("mode") = "create",
      py::arg("comm") = py::none(),
      R"(Saves a distributed array as dataset `name` of the HDF5 file `file`.

Collective over the layout's communicator (the array's own Layout, made
here, when `layout` is None: over `comm`, or the array's `.comm` as
dapetra.DistArray has one, or COMM_WORLD). Every owned
element is written once, by the process that owns it, into one dataset in
global index order: h5py and h5dump read the global array as it is.
mode='create' writes a new file (under a temporary name, renamed when
complete); 'append' adds the dataset to an existing file. Per process: one
redistribution of its part to an even slab of the first axis, and one
hyperslab write. A fault on any process (names that differ, a file that
cannot be written) raises the same ValidationError on every process.)");
  m.def(
      "load",
      [](const std::string& file, const std::string& name, const py::object& a, const py::object& layout,
         const py::object& comm) {
        const Layout l = layout_for(a, layout, comm);
        const CallArray array = call_array(a, *l.layout);
        run({&array}, [&] {
          with_scalar(l.layout->format(), [&](auto t) {
            hdf5::load<typename decltype(t)::type>(file, name, l.layout, array.array());
          });
        });
      },
      py::arg("file"), py::arg("name"), py::arg("a"), py::arg("layout") = py::none(), py::arg("comm") = py::none(),
      R"(Loads dataset `name` of the HDF5 file `file` into the distributed array `a`.

Collective, on any number of processes, into any layout of the dataset's
shape (the array's own Layout, made here as save() makes it, when
`layout` is None): every
owned element of `a` is read from the file, its padding (ghosts) filled by
a halo update. Per process: one hyperslab read of an even slab, and one
redistribution. A missing file or dataset, or one of another shape or
element type, raises the same ValidationError on every process before any
read.)");
}

}  // namespace dapetra::python

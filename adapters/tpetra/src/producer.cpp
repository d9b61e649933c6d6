#include "dapetra/tpetra/producer.hpp"

#include <Tpetra_Map.hpp>
#include <Tpetra_MultiVector.hpp>

#include "teuchos_collectives.hpp"
#include "dapetra/tpetra/compat.hpp"

namespace dapetra::tpetra {

Dim dim_of_map(const Map& map) {
  const Comm& comm = *map.getComm();
  const int P = comm.getSize(), r = comm.getRank();
  const GO base = map.getIndexBase();
  const auto gids = map.getMyGlobalIndices();
  const auto n = static_cast<global_index_t>(gids.extent(0));

  // What every process needs to know of the others: are my indices one
  // consecutive run, where does it start, how many, how long is my first run.
  global_index_t run = n > 0 ? 1 : 0;
  while (run < n && gids(run) == gids(run - 1) + 1) ++run;
  const global_index_t first = n > 0 ? gids(0) - base : 0;
  const auto all = detail::gather_words({run == n, first, n, run}, comm, 5);

  global_index_t total = 0;
  bool block = true;
  std::vector<global_index_t> offset(P + 1, 0);
  for (int q = 0; q < P; ++q) {
    const std::int64_t* words = all.of(q);
    block = block && words[0] == 1 && (words[2] == 0 || words[1] == total);
    total += words[2];
    offset[q + 1] = total;
  }
  if (block) return Dim::block(total, P, r, offset[r], offset[r + 1]);

  // Block-cyclic: rank 0's first run is the block size; every process checks
  // its own indices against the closed form.
  const global_index_t b = std::max<global_index_t>(all.of(0)[3], 1);
  bool cyclic = n == cyclic_count(total, b, P, r);
  for (global_index_t i = 0; i < n && cyclic; ++i) cyclic = gids(i) - base == cyclic_global_index(i, b, P, r);
  if (detail::all_true(cyclic, comm)) return Dim::cyclic(total, P, r, b);

  std::vector<global_index_t> indices(static_cast<std::size_t>(n));
  for (global_index_t i = 0; i < n; ++i) indices[i] = gids(i) - base;
  const bool one_to_one = map.isOneToOne();
  const global_index_t distinct =
      one_to_one ? total
                 : static_cast<global_index_t>(Tpetra::createOneToOne(Teuchos::rcpFromRef(map))->getGlobalNumElements());
  return Dim::unstructured(distinct, P, r, std::move(indices), one_to_one);
}

namespace {

template <class Scalar>
DistArray wrap_vector(const Teuchos::RCP<MultiVector<Scalar>>& vector, std::vector<Dim> dims,
                      std::vector<global_index_t> shape, std::vector<global_index_t> strides) {
  if (!vector->isConstantStride())
    throw ValidationError(
        {Problem::of(vector->getMap()->getComm()->getRank(), "strides", "", "a DAP buffer has constant strides",
                     "the MultiVector's columns are not equally spaced")});
  auto host = vector->getLocalViewHost(Tpetra::Access::ReadWrite);
  DistArray a;
  a.buffer.data = host.data();
  a.buffer.format = format_of<Scalar>();
  a.buffer.itemsize = sizeof(Scalar);
  a.buffer.shape = std::move(shape);
  a.buffer.strides = std::move(strides);
  Teuchos::RCP<MultiVector<Scalar>> hold = vector;
  a.buffer.keep_alive = std::shared_ptr<const void>(host.data(), [hold](const void*) mutable { hold = Teuchos::null; });
  a.dim_data = std::move(dims);
  return a;
}

}  // namespace

namespace detail {

template <class Scalar>
DistArray to_distarray(const Teuchos::RCP<MultiVector<Scalar>>& vector) {
  const Dim rows = dim_of_map(*vector->getMap());
  const auto n = static_cast<global_index_t>(vector->getLocalLength());
  const auto k = static_cast<global_index_t>(vector->getNumVectors());
  const auto isz = static_cast<global_index_t>(sizeof(Scalar));
  if (k == 1) return wrap_vector(vector, {rows}, {n}, {isz});
  const auto lda = static_cast<global_index_t>(vector->isConstantStride() ? vector->getStride() : 0);
  return wrap_vector(vector, {rows, Dim::undistributed(k)}, {n, k}, {isz, lda * isz});
}

template <class Scalar>
DistArray to_distarray(const Teuchos::RCP<MultiVector<Scalar>>& vector, const TpetraLayout& layout) {
  const Teuchos::RCP<const Map> map = vector->getMap();
  if (map.get() != layout.buffer_map().get() && !map->locallySameAs(*layout.buffer_map()))
    throw ValidationError({Problem::of(layout.distribution()->rank(), "map", "", "the vector lives on the layout's buffer map",
                                       "the vector's map is not the layout's buffer map")});
  if (vector->getNumVectors() != layout.num_vectors())
    throw ValidationError({Problem::of(layout.distribution()->rank(), "columns", std::to_string(vector->getNumVectors()),
                                       "the vector has the layout's number of columns",
                                       "the layout has " + std::to_string(layout.num_vectors()))});
  // The layout's strides, with the columns as far apart as this vector's are.
  std::vector<global_index_t> strides = layout.distribution()->local_strides();
  const auto isz = static_cast<global_index_t>(sizeof(Scalar));
  if (layout.column_axis() >= 0 && vector->isConstantStride())
    strides[layout.column_axis()] = static_cast<global_index_t>(vector->getStride()) * isz;
  if (layout.distribution()->itemsize() != sizeof(Scalar) || !layout.buffer_viewable()) {
    // Rebuild compact strides for the vector's element type.
    global_index_t step = isz;
    const auto shape = local_shape_of(layout.distribution()->dim_data());
    for (auto it = layout.distribution()->memory_order().rbegin(); it != layout.distribution()->memory_order().rend(); ++it) {
      if (*it == layout.column_axis()) continue;
      strides[*it] = step;
      step *= std::max<global_index_t>(shape[*it], 1);
    }
    if (layout.column_axis() >= 0) strides[layout.column_axis()] = static_cast<global_index_t>(vector->getStride()) * isz;
  }
  return wrap_vector(vector, layout.distribution()->dim_data(), local_shape_of(layout.distribution()->dim_data()), std::move(strides));
}

}  // namespace detail

#define DAPETRA_INSTANTIATE_PRODUCER(S)                                                        \
  template DistArray detail::to_distarray<S>(const Teuchos::RCP<MultiVector<S>>&);             \
  template DistArray detail::to_distarray<S>(const Teuchos::RCP<MultiVector<S>>&, const TpetraLayout&);

DAPETRA_FOR_EACH_TPETRA_SCALAR(DAPETRA_INSTANTIATE_PRODUCER)

}  // namespace dapetra::tpetra

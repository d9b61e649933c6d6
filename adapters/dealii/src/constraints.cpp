// deal.II's assembly loop (AffineConstraints::distribute_local_to_global)
// instantiated for TpetraSparseMatrix, as deal.II instantiates it for its
// own matrices in its library: programs that assemble into the adapter's
// matrix need only affine_constraints.h. The right-hand sides: deal.II's
// serial Vector (the matrix-only call passes an empty one), its
// distributed Vector and its distributed BlockVector.
#include <deal.II/lac/affine_constraints.templates.h>

#include "dapetra/dealii/tpetra_matrix.hpp"

namespace dealii {

#define DAPETRA_DISTRIBUTE_LOCAL_TO_GLOBAL(RHS)                                                              \
  template void AffineConstraints<double>::distribute_local_to_global<dapetra::dealii::TpetraSparseMatrix, RHS>( \
      const FullMatrix<double>&, const Vector<double>&, const std::vector<types::global_dof_index>&,          \
      dapetra::dealii::TpetraSparseMatrix&, RHS&, bool, std::integral_constant<bool, false>) const;

DAPETRA_DISTRIBUTE_LOCAL_TO_GLOBAL(Vector<double>)
DAPETRA_DISTRIBUTE_LOCAL_TO_GLOBAL(dapetra::dealii::Vector)
DAPETRA_DISTRIBUTE_LOCAL_TO_GLOBAL(dapetra::dealii::BlockVector)

#undef DAPETRA_DISTRIBUTE_LOCAL_TO_GLOBAL

}  // namespace dealii

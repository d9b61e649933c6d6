/// \file
/// dapetra/tpetra/block_system.hpp: saddle-point systems, one Tpetra matrix
/// whose fields are named by index lists, solved with a block preconditioner.
///
/// Stokes, mixed elasticity and other multi-field problems give one matrix
/// K = [[A, B^T], [B, -C]] over several fields (velocity and pressure, say),
/// numbered together as the assembling code numbers them (DOLFINx's blocked
/// assembly, deal.II's block-wise renumbering, or interleaved). A single AMG
/// does not solve K. A block preconditioner does: MueLu on the first field's
/// block A, and for the second field an approximation of the Schur
/// complement that the caller gives as a matrix P's block (for Stokes, the
/// pressure mass matrix), as PETSc's fieldsplit and Teko do:
///   - block diagonal diag(A, S), symmetric positive definite: for MINRES;
///   - block upper triangular [[A, B^T], [0, -S]]: for GMRES.
/// FieldSplit is the plan (the fields, each with its own contiguous map),
/// built once; BlockPreconditioner applies; solve_block_system() is the one
/// call. A system kept as separate matrices, one per block (deal.II's
/// BlockSparseMatrix, nested matrices), is a BlockOperator: the same
/// preconditioners and solve, with nothing copied into one matrix. Header-only, like solver.hpp (Belos, Ifpack2 and MueLu linked where
/// it is included).
#pragma once

#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_Import.hpp>
#include <Tpetra_Operator.hpp>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "dapetra/error.hpp"
#include "dapetra/mpi/agree.hpp"
#include "dapetra/tpetra/comm.hpp"
#include "dapetra/tpetra/solver.hpp"

namespace dapetra::tpetra {

/// The fields of one matrix's rows: which of this process's owned rows
/// belong to which field (PETSc's index sets, Teko's block ids), and each
/// field's own map, its rows numbered contiguously process after process in
/// the order given. Immutable once built; O(rows owned) per process.
class FieldSplit {
 public:
  /// Collective over the map's communicator: two reductions, one agreement,
  /// and a contiguous Tpetra Map per field (a scan each). Every owned row must be in exactly one field, and every
  /// process must name the same number of fields; otherwise every process
  /// throws the same ValidationError (key "fields", the rank and the row).
  /// @param rows the matrix's row map (its domain and range map too).
  /// @param owned_rows_of_field for each field, this process's rows in it, as
  ///   local indices of `rows`, in the order the field's map numbers them.
  FieldSplit(Teuchos::RCP<const Map> rows, std::vector<std::vector<LO>> owned_rows_of_field)
      : rows_(std::move(rows)), local_rows_(std::move(owned_rows_of_field)) {
    const int rank = rows_->getComm()->getRank();
    std::vector<Problem> problems;
    const std::size_t n = compat::local_num_elements(*rows_);
    std::vector<int> field_of_row(n, -1);
    for (std::size_t f = 0; f < local_rows_.size(); ++f)
      for (const LO r : local_rows_[f]) {
        if (r < 0 || static_cast<std::size_t>(r) >= n || field_of_row[static_cast<std::size_t>(r)] != -1) {
          problems.push_back(Problem::of(rank, "fields", std::to_string(r),
                                         "each owned row is in exactly one field", "row named twice or not owned"));
          break;
        }
        field_of_row[static_cast<std::size_t>(r)] = static_cast<int>(f);
      }
    for (std::size_t r = 0; r < n && problems.empty(); ++r)
      if (field_of_row[r] == -1)
        problems.push_back(Problem::of(rank, "fields", std::to_string(r), "each owned row is in exactly one field",
                                       "row in no field"));
    const MPI_Comm comm = mpi_comm_of(*rows_->getComm());
    // The number of fields, the same everywhere: its least and its largest.
    int count[2] = {static_cast<int>(local_rows_.size()), -static_cast<int>(local_rows_.size())}, least[2];
    MPI_Allreduce(count, least, 2, MPI_INT, MPI_MIN, comm);
    if (least[0] != -least[1])
      problems.push_back(Problem::of(rank, "fields", std::to_string(local_rows_.size()),
                                     "every process names the same number of fields",
                                     "between " + std::to_string(least[0]) + " and " + std::to_string(-least[1])));
    mpi::agree(problems, comm);
    std::vector<std::int64_t> mine, total(local_rows_.size());
    for (const auto& list : local_rows_) mine.push_back(static_cast<std::int64_t>(list.size()));
    MPI_Allreduce(mine.data(), total.data(), static_cast<int>(mine.size()), MPI_INT64_T, MPI_SUM, comm);
    for (std::size_t f = 0; f < local_rows_.size(); ++f)
      maps_.push_back(Teuchos::rcp(
          new Map(static_cast<Tpetra::global_size_t>(total[f]), local_rows_[f].size(), 0, rows_->getComm())));
  }

  /// Collective, as the constructor. The fields in blocks, as DOLFINx's
  /// blocked assembly and deal.II's block-wise numbering give them: on each
  /// process, field 0's owned rows first, then field 1's, and so on.
  /// @param rows the matrix's row map.
  /// @param owned_counts this process's number of rows in each field (they
  ///   add up to its owned rows).
  static FieldSplit in_blocks(Teuchos::RCP<const Map> rows, const std::vector<std::size_t>& owned_counts) {
    std::vector<std::vector<LO>> lists;
    LO next = 0;
    for (const std::size_t n : owned_counts) {
      lists.emplace_back(n);
      for (LO& r : lists.back()) r = next++;
    }
    return FieldSplit(std::move(rows), std::move(lists));
  }

  /// @return the number of fields.
  std::size_t num_fields() const { return local_rows_.size(); }

  /// Local. Whether field f's rows on this process are consecutive rows in
  /// order (as in_blocks() makes them), so that field_view() can view them.
  /// @param f the field.
  bool is_contiguous(std::size_t f) const {
    const auto& list = local_rows_.at(f);
    for (std::size_t i = 1; i < list.size(); ++i)
      if (list[i] != list[i - 1] + 1) return false;
    return true;
  }

  /// Local, no copy: field f's rows of x (on row_map()) as a MultiVector on
  /// field_map(f) over x's memory; writes to either are seen in both. Throws
  /// std::invalid_argument where the field's rows are not contiguous here.
  /// @param x a vector on row_map().
  /// @param f the field.
  Teuchos::RCP<MultiVector<double>> field_view(MultiVector<double>& x, std::size_t f) const {
    if (!is_contiguous(f))
      throw std::invalid_argument("dapetra::tpetra::FieldSplit::field_view: field " + std::to_string(f) +
                                  "'s rows are not contiguous on this process (copy_field_to copies them)");
    const auto& list = local_rows_.at(f);
    return x.offsetViewNonConst(maps_.at(f), list.empty() ? 0 : static_cast<std::size_t>(list.front()));
  }
  /// @param f the field.
  /// @return field f's map: its rows numbered contiguously, process after process.
  const Teuchos::RCP<const Map>& field_map(std::size_t f) const { return maps_.at(f); }
  /// @return the matrix's row map.
  const Teuchos::RCP<const Map>& row_map() const { return rows_; }
  /// @param f the field.
  /// @return field f's rows on this process, local indices of row_map().
  const std::vector<LO>& owned_rows(std::size_t f) const { return local_rows_.at(f); }

  /// Collective over the map's communicator: one Import of two integers per
  /// column. The block of `k` with rows in field f and columns in field g,
  /// as a new matrix on the fields' maps (rows: field_map(f); domain:
  /// field_map(g)). Copies the entries.
  /// @param k a fill-complete matrix whose row, domain and range maps are row_map().
  /// @param f the rows' field.
  /// @param g the columns' field.
  /// @return the block, a new fill-complete matrix.
  Teuchos::RCP<CrsMatrix> copy_block_to_new_matrix(const CrsMatrix& k, std::size_t f, std::size_t g) const {
    // Each column's field and number in its field, brought from its owner.
    Tpetra::MultiVector<GO, LO, GO, Node> mine(rows_, 2), cols(k.getColMap(), 2);
    {
      auto v = mine.getLocalViewHost(Tpetra::Access::OverwriteAll);
      for (std::size_t h = 0; h < local_rows_.size(); ++h)
        for (std::size_t i = 0; i < local_rows_[h].size(); ++i) {
          const auto r = static_cast<std::size_t>(local_rows_[h][i]);
          v(r, 0) = static_cast<GO>(h);
          v(r, 1) = maps_[h]->getGlobalElement(static_cast<LO>(i));
        }
    }
    cols.doImport(mine, Tpetra::Import<LO, GO, Node>(rows_, k.getColMap()), Tpetra::INSERT);
    auto c = cols.getLocalViewHost(Tpetra::Access::ReadOnly);
    // The block's rows (CSR, global columns in field g's numbering), then the matrix.
    std::vector<std::size_t> begin{0};
    std::vector<GO> columns;
    std::vector<double> values;
    std::size_t widest = 0;
    for (const LO row : local_rows_.at(f)) {
      typename CrsMatrix::local_inds_host_view_type ind;
      typename CrsMatrix::values_host_view_type val;
      k.getLocalRowView(row, ind, val);
      for (std::size_t e = 0; e < ind.extent(0); ++e) {
        const auto col = static_cast<std::size_t>(ind(e));
        if (c(col, 0) != static_cast<GO>(g)) continue;
        columns.push_back(c(col, 1));
        values.push_back(static_cast<double>(val(e)));
      }
      begin.push_back(columns.size());
      widest = std::max(widest, begin.back() - begin[begin.size() - 2]);
    }
    auto out = Teuchos::rcp(new CrsMatrix(maps_.at(f), widest));
    for (std::size_t i = 0; i + 1 < begin.size(); ++i) {
      const auto n = static_cast<Teuchos::ArrayView<const GO>::size_type>(begin[i + 1] - begin[i]);
      out->insertGlobalValues(maps_[f]->getGlobalElement(static_cast<LO>(i)),
                              Teuchos::ArrayView<const GO>(columns.data() + begin[i], n),
                              Teuchos::ArrayView<const double>(values.data() + begin[i], n));
    }
    out->fillComplete(maps_.at(g), maps_.at(f));
    return out;
  }

  /// Local: field f's rows of x (on row_map()) into y (on field_map(f)),
  /// every column. Copies.
  /// @param x a vector on row_map().
  /// @param f the field.
  /// @param y a vector on field_map(f), with x's number of columns.
  void copy_field_to(const MultiVector<double>& x, std::size_t f, MultiVector<double>& y) const {
    auto from = x.getLocalViewHost(Tpetra::Access::ReadOnly);
    auto to = y.getLocalViewHost(Tpetra::Access::OverwriteAll);
    const auto& list = local_rows_.at(f);
    for (std::size_t j = 0; j < x.getNumVectors(); ++j)
      for (std::size_t i = 0; i < list.size(); ++i) to(i, j) = from(static_cast<std::size_t>(list[i]), j);
  }

  /// Local: y (on field_map(f)) into field f's rows of x (on row_map()),
  /// every column; other rows untouched. Copies.
  /// @param y a vector on field_map(f).
  /// @param f the field.
  /// @param x a vector on row_map(), with y's number of columns.
  void copy_field_from(const MultiVector<double>& y, std::size_t f, MultiVector<double>& x) const {
    auto from = y.getLocalViewHost(Tpetra::Access::ReadOnly);
    auto to = x.getLocalViewHost(Tpetra::Access::ReadWrite);
    const auto& list = local_rows_.at(f);
    for (std::size_t j = 0; j < x.getNumVectors(); ++j)
      for (std::size_t i = 0; i < list.size(); ++i) to(static_cast<std::size_t>(list[i]), j) = from(i, j);
  }

 private:
  Teuchos::RCP<const Map> rows_;
  std::vector<std::vector<LO>> local_rows_;
  std::vector<Teuchos::RCP<const Map>> maps_;
};

/// A block of Tpetra matrices as one operator, as codes that keep the
/// blocks of a multi-field system apart hold it (deal.II's
/// BlockSparseMatrix, DOLFINx's and PETSc's nested matrices, or K, B^T, B
/// and C built one by one): K = [[K_00, K_01], [K_10, K_11]] on the fields'
/// own maps, never formed as one matrix. Its domain and range are one map
/// over every field, numbered in blocks (on each process field 0's rows,
/// then field 1's, ...), so that one vector holds every field, each a view
/// (fields().field_view(x, f) is a vector on field_map(f)), and Belos works
/// on it directly. Immutable once built; O(fields^2) per process.
class BlockOperator : public Operator {
 public:
  /// Collective over the blocks' communicator: two reductions, one
  /// agreement, and the fields' maps (FieldSplit::in_blocks). Every block
  /// must be fill-complete; in each row of blocks every block's range map,
  /// and in each column every block's domain map, must be that field's map
  /// (the first block's of its row), locally the same; every row and column
  /// has a block; every process names as many fields. Otherwise every
  /// process throws the same ValidationError (key "blocks", the rank and
  /// the block at fault). Nothing is copied.
  /// @param blocks blocks[i][j]: rows in field i, columns in field j (null: a zero block).
  explicit BlockOperator(std::vector<std::vector<Teuchos::RCP<CrsMatrix>>> blocks)
      : blocks_(std::move(blocks)), fields_(check_and_split()) {}

  /// @return the map over every field (the fields in blocks).
  Teuchos::RCP<const Map> getDomainMap() const override { return fields_.row_map(); }
  /// @return the map over every field (the fields in blocks).
  Teuchos::RCP<const Map> getRangeMap() const override { return fields_.row_map(); }
  /// @return whether apply() takes TRANS (it does: each block's transpose).
  bool hasTransposeApply() const override { return true; }

  /// Collective, as the blocks' apply: y_i = beta y_i + alpha sum_j K_ij x_j
  /// (K_ji^T with TRANS), each field a view of x and y.
  /// @param x vectors on the map over every field.
  /// @param y the result, on the same map.
  /// @param mode NO_TRANS, TRANS or CONJ_TRANS.
  /// @param alpha the scale of K x.
  /// @param beta the scale of y's values.
  void apply(const MultiVector<double>& x, MultiVector<double>& y, Teuchos::ETransp mode = Teuchos::NO_TRANS,
             double alpha = 1.0, double beta = 0.0) const override {
    const bool trans = mode != Teuchos::NO_TRANS;
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
      const auto yi = y.offsetViewNonConst(maps_[i], offsets_[i]);
      if (beta == 0.0) yi->putScalar(0.0);
      else if (beta != 1.0) yi->scale(beta);
      for (std::size_t j = 0; j < blocks_.size(); ++j) {
        const auto& k = trans ? blocks_[j][i] : blocks_[i][j];
        if (!k.is_null()) k->apply(*x.offsetView(maps_[j], offsets_[j]), *yi, mode, alpha, 1.0);
      }
    }
  }

  /// @return the number of fields.
  std::size_t num_fields() const { return blocks_.size(); }
  /// @param i the rows' field.
  /// @param j the columns' field.
  /// @return block (i, j), or null for a zero block.
  const Teuchos::RCP<CrsMatrix>& block(std::size_t i, std::size_t j) const { return blocks_.at(i).at(j); }
  /// @param f the field.
  /// @return the blocks' map of field f (its rows' map; vectors' views of the field are on it).
  const Teuchos::RCP<const Map>& field_map(std::size_t f) const { return maps_.at(f); }
  /// @return the fields of the map over every field, in blocks (FieldSplit::in_blocks).
  const FieldSplit& fields() const { return fields_; }

 private:
  // The fields' maps and offsets, the checks agreed, then the split.
  FieldSplit check_and_split() {
    const auto nonnull = [&] {
      for (const auto& row : blocks_)
        for (const auto& k : row)
          if (!k.is_null()) return k;
      return Teuchos::RCP<CrsMatrix>();
    }();
    if (nonnull.is_null()) throw std::invalid_argument("dapetra::tpetra::BlockOperator: no block at all");
    const auto comm = nonnull->getRowMap()->getComm();
    const int rank = comm->getRank();
    const std::size_t n = blocks_.size();
    std::vector<Problem> problems;
    const auto refuse = [&](std::size_t i, std::size_t j, const std::string& rule, const std::string& why) {
      problems.push_back(Problem::of(rank, "blocks", "(" + std::to_string(i) + ", " + std::to_string(j) + ")", rule, why));
    };
    maps_.assign(n, Teuchos::null);
    for (std::size_t i = 0; i < n && problems.empty(); ++i) {
      if (blocks_[i].size() != n) refuse(i, 0, "a square block of blocks", std::to_string(blocks_[i].size()) + " blocks in this row");
      for (std::size_t j = 0; j < blocks_[i].size() && problems.empty(); ++j)
        if (!blocks_[i][j].is_null() && !blocks_[i][j]->isFillComplete()) refuse(i, j, "fill-complete blocks", "not fill-complete");
    }
    for (std::size_t i = 0; i < n && problems.empty(); ++i) {
      for (const auto& k : blocks_[i])
        if (!k.is_null()) {
          maps_[i] = k->getRangeMap();
          break;
        }
      if (maps_[i].is_null()) refuse(i, 0, "a block in every row", "row " + std::to_string(i) + " has none");
    }
    for (std::size_t i = 0; i < n && problems.empty(); ++i)
      for (std::size_t j = 0; j < n && problems.empty(); ++j) {
        const auto& k = blocks_[i][j];
        if (k.is_null()) continue;
        if (!k->getRangeMap()->locallySameAs(*maps_[i]))
          refuse(i, j, "its range map is its row's field map", std::to_string(compat::local_num_elements(*k->getRangeMap())) + " rows here, the field " + std::to_string(compat::local_num_elements(*maps_[i])));
        else if (!k->getDomainMap()->locallySameAs(*maps_[j]))
          refuse(i, j, "its domain map is its column's field map", std::to_string(compat::local_num_elements(*k->getDomainMap())) + " columns here, the field " + std::to_string(compat::local_num_elements(*maps_[j])));
      }
    // The number of fields, the same everywhere: its least and its largest.
    const MPI_Comm mpi_comm = mpi_comm_of(*comm);
    int count[2] = {static_cast<int>(n), -static_cast<int>(n)}, least[2];
    MPI_Allreduce(count, least, 2, MPI_INT, MPI_MIN, mpi_comm);
    if (least[0] != -least[1])
      problems.push_back(Problem::of(rank, "blocks", std::to_string(n) + " fields", "every process names the same number of fields",
                                     "between " + std::to_string(least[0]) + " and " + std::to_string(-least[1])));
    mpi::agree(problems, mpi_comm);
    std::vector<std::size_t> counts;
    std::size_t total = 0;
    for (const auto& m : maps_) {
      offsets_.push_back(total);
      counts.push_back(compat::local_num_elements(*m));
      total += counts.back();
    }
    std::int64_t mine = static_cast<std::int64_t>(total), global = 0;
    MPI_Allreduce(&mine, &global, 1, MPI_INT64_T, MPI_SUM, mpi_comm);
    return FieldSplit::in_blocks(
        Teuchos::rcp(new Map(static_cast<Tpetra::global_size_t>(global), total, 0, comm)), counts);
  }

  std::vector<std::vector<Teuchos::RCP<CrsMatrix>>> blocks_;
  std::vector<Teuchos::RCP<const Map>> maps_;
  std::vector<std::size_t> offsets_;
  FieldSplit fields_;
};

/// Which block preconditioner.
enum class BlockKind {
  /// diag(A^-1, S^-1): symmetric positive definite when both inner ones
  /// are, so MINRES may use it.
  diagonal,
  /// [[A, B^T], [0, -S]]^-1: S^-1 first, then A^-1 (x_u - B^T y_p); for
  /// GMRES. Exact inner inverses would make GMRES converge in two steps.
  upper_triangular,
};

/// How the block preconditioner inverts its two blocks; every process must
/// pass the same.
struct BlockOptions {
  /// diagonal (MINRES) or upper_triangular (GMRES).
  BlockKind kind = BlockKind::diagonal;
  /// The first field's block A: a make_preconditioner() name ("MueLu" by
  /// default: one V-cycle per application) and its parameters.
  std::string first = "MueLu";
  /// Overrides of the first preconditioner's parameters: by default
  /// velocity_multigrid() (see there).
  Teuchos::ParameterList first_parameters = velocity_multigrid();
  /// MueLu's unknowns per node on the first field (a velocity's components,
  /// interleaved), and its near-nullspace on field_map(0) (null: constants).
  int first_equations_per_node = 1;
  /// MueLu's near-nullspace on the first field's map (null: a constant per equation).
  Teuchos::RCP<MultiVector<double>> first_near_nullspace;
  /// The Schur approximation S (P's second block, e.g. the pressure mass
  /// matrix): a make_preconditioner() name. Damped Jacobi sweeps by
  /// default, which suit a mass matrix (undamped ones do not converge on a
  /// P1 mass matrix, whose D^-1 M reaches 2).
  std::string second = "RELAXATION";
  /// The second preconditioner's parameters (replace them all when naming
  /// another preconditioner).
  Teuchos::ParameterList second_parameters = damped_jacobi_sweeps(3, 0.67);
  /// 0 (the default): A's preconditioner is applied once. A positive
  /// tolerance makes A's application a CG solve (InnerSolve) preconditioned
  /// by it, to this relative residual. solve_block_system() then uses
  /// Flexible GMRES for the upper triangular kind; MINRES (the diagonal
  /// kind) needs a tolerance tight enough that P stays close to linear.
  double first_tolerance = 0;
  /// The same for S: deal.II's step-55 inverts the pressure mass matrix by
  /// CG to 1e-6 so.
  double second_tolerance = 0;
  /// The inner CG's iteration limit per application.
  int inner_max_iterations = 200;

  /// @param n the sweeps.
  /// @param omega the damping factor.
  /// @return Ifpack2 RELAXATION parameters for n Jacobi sweeps damped by omega.
  static Teuchos::ParameterList damped_jacobi_sweeps(int n, double omega) {
    Teuchos::ParameterList p;
    p.set("relaxation: type", "Jacobi");
    p.set("relaxation: sweeps", n);
    p.set("relaxation: damping factor", omega);
    return p;
  }

  /// MueLu's settings for a second-order velocity block (Taylor-Hood's
  /// Q2 or P2), over Dapetra's for CG (muelu_parameters_for_cg(), which
  /// drop couplings weaker than 5 % and aim Chebyshev at the upper seventh
  /// of the spectrum): Chebyshev of degree 3 (for a scalar block too; CG's
  /// settings have 3 for several unknowns per node, 2 for one). MINRES
  /// iterations with the block diagonal kind, 2 processes, Trilinos 13.2,
  /// 2026-11-27:
  ///   - deal.II's step-55 (Q2-Q1, examples/dealii/step55.cpp) at 8, 16,
  ///     32, 64 cells a side: 94, 120, 131, 137 with CG's settings of
  ///     before (degree 1, no dropping, Ifpack2's ratio of 30); 94, 113,
  ///     121, 128 dropping at 2 %; 96, 109, 112, 114 at 5 %; 55, 65, 69, 71
  ///     with these (72 at 128);
  ///   - DOLFINx's Stokes (P2-P1, examples/python/stokes_dolfinx.py) at 16,
  ///     32, 64 cells a side: 95, 106, 117 dropping at 2 %; 88, 99, 111 with
  ///     these, in the same time.
  static Teuchos::ParameterList velocity_multigrid() {
    Teuchos::ParameterList p;
    p.sublist("smoother: params").set("chebyshev: degree", 3);
    return p;
  }
};

/// A block preconditioner for a two-field matrix K (FieldSplit with two
/// fields): a Tpetra operator on K's row map. Set up once (collective:
/// MueLu's and the second preconditioner's set-up, and the block copies);
/// apply() is collective too, as any Tpetra operator's.
class BlockPreconditioner : public Operator {
 public:
  /// Collective. Copies A from `p`'s first block and S from its second (and
  /// B^T from k's off-diagonal block for the upper triangular kind). A `k`
  /// or `p` whose rows are not the fields' rows, on any process, throws the
  /// same ValidationError on every process (key "matrix" or "preconditioning
  /// matrix") before any set-up.
  /// @param fields the two fields.
  /// @param k the system matrix (read only for B^T).
  /// @param p the preconditioning matrix: A in its first block, S in its
  ///   second; often k itself with S in place of -C (DOLFINx's demo builds
  ///   it so), or k for A alone.
  /// @param options the kind and the inner preconditioners.
  BlockPreconditioner(const FieldSplit& fields, const CrsMatrix& k, const CrsMatrix& p, const BlockOptions& options)
      : fields_(fields), kind_(options.kind) {
    if (fields.num_fields() != 2) throw std::invalid_argument("dapetra::tpetra::BlockPreconditioner: two fields");
    check_layouts(k, p);
    a_ = fields.copy_block_to_new_matrix(p, 0, 0);
    s_ = fields.copy_block_to_new_matrix(p, 1, 1);
    if (kind_ == BlockKind::upper_triangular) bt_ = fields.copy_block_to_new_matrix(k, 0, 1);
    set_up(options);
  }

  /// Collective. The same for a system held as separate blocks: A is k's
  /// block (0, 0), B^T its block (0, 1) (upper triangular kind), S the
  /// caller's matrix on field 1's map. Nothing is copied. An `s` missing or
  /// on another map than k's field 1, or no block (0, 0), on any process,
  /// throws the same ValidationError on every process (key "preconditioning
  /// matrix" or "matrix") before any set-up.
  /// @param k the system's blocks (two fields, block (0, 0) present).
  /// @param s the Schur approximation (the pressure mass matrix, say), fill-complete.
  /// @param options the kind and the inner preconditioners.
  BlockPreconditioner(const BlockOperator& k, const Teuchos::RCP<CrsMatrix>& s, const BlockOptions& options)
      : fields_(k.fields()), kind_(options.kind) {
    if (k.num_fields() != 2)  // (agreed by the BlockOperator: the same on every process)
      throw std::invalid_argument("dapetra::tpetra::BlockPreconditioner: two fields");
    const int rank = fields_.row_map()->getComm()->getRank();
    std::vector<Problem> problems;
    if (k.block(0, 0).is_null())
      problems.push_back(Problem::of(rank, "matrix", "block (0, 0)", "the first field's block A is present", "a zero block"));
    if (s.is_null() || !s->isFillComplete() || !s->getRangeMap()->locallySameAs(*k.field_map(1)) ||
        !s->getDomainMap()->locallySameAs(*k.field_map(1)))
      problems.push_back(Problem::of(rank, "preconditioning matrix",
                                     s.is_null() ? "none" : std::to_string(compat::local_num_elements(*s->getRowMap())) + " rows",
                                     "a fill-complete S on the second field's map (" +
                                         std::to_string(compat::local_num_elements(*k.field_map(1))) + " rows here)",
                                     "a Schur approximation on another layout than the second field's"));
    mpi::agree(problems, mpi_comm_of(*fields_.row_map()->getComm()));
    a_ = k.block(0, 0);
    s_ = s;
    if (kind_ == BlockKind::upper_triangular) bt_ = k.block(0, 1);
    set_up(options);
  }

  /// @return the system's row map.
  Teuchos::RCP<const Map> getDomainMap() const override { return fields_.row_map(); }
  /// @return the system's row map.
  Teuchos::RCP<const Map> getRangeMap() const override { return fields_.row_map(); }

  /// Collective, as any Tpetra operator's apply: MueLu's V-cycle, the second
  /// preconditioner and (upper triangular) one matrix-vector product. Fields
  /// in blocks are read and written in place (views of x and y); otherwise,
  /// and where alpha or beta asks for it, through field-sized vectors kept
  /// from the last call with as many columns.
  /// @param x the vectors to precondition, on the row map.
  /// @param y y = beta y + alpha P^-1 x, on the row map.
  /// @param mode NO_TRANS (or, for the diagonal kind, which is symmetric
  ///   when its inner preconditioners are, TRANS).
  /// @param alpha the scale of P^-1 x.
  /// @param beta the scale of y's values.
  void apply(const MultiVector<double>& x, MultiVector<double>& y, Teuchos::ETransp mode = Teuchos::NO_TRANS,
             double alpha = 1.0, double beta = 0.0) const override {
    if (mode != Teuchos::NO_TRANS && kind_ != BlockKind::diagonal)
      throw std::invalid_argument("dapetra::tpetra::BlockPreconditioner: the upper triangular kind has no transpose");
    const std::size_t k = x.getNumVectors();
    if (work_.columns != k) work_ = Work({map_of(0), map_of(1), fields_.row_map()}, k);
    const bool in_place = fields_.is_contiguous(0) && fields_.is_contiguous(1);
    const bool into_y = in_place && alpha == 1.0 && beta == 0.0;
    MultiVector<double>& out = into_y ? y : *work_.z;
    // x's fields (views, or copies), and where the result's fields go.
    const auto xp = in_place ? x.offsetView(map_of(1), offset(1)) : copied(x, 1, *work_.xp);
    Teuchos::RCP<const MultiVector<double>> xu;
    if (kind_ == BlockKind::upper_triangular || !in_place) xu = copied(x, 0, *work_.xu);  // (x_u is changed below)
    else xu = x.offsetView(map_of(0), offset(0));
    const auto yu = in_place ? out.offsetViewNonConst(map_of(0), offset(0)) : work_.yu;
    const auto yp = in_place ? out.offsetViewNonConst(map_of(1), offset(1)) : work_.yp;
    s_inverse_->apply(*xp, *yp);
    if (kind_ == BlockKind::upper_triangular) {
      yp->scale(-1.0);                                                      // y_p = -S^-1 x_p
      bt_->apply(*yp, *work_.xu, Teuchos::NO_TRANS, -1.0, 1.0);             // x_u - B^T y_p
    }
    a_inverse_->apply(*xu, *yu);
    if (!in_place) {
      fields_.copy_field_from(*yu, 0, out);
      fields_.copy_field_from(*yp, 1, out);
    }
    if (!into_y) y.update(alpha, out, beta);
  }

  /// Local. The solver options solve_block_system() uses with this kind:
  /// MINRES (diagonal), GMRES (upper triangular), or Flexible GMRES (upper
  /// triangular with an inner solve).
  /// @param block the block options.
  /// @param options the tolerance and iteration limit.
  /// @return options with the method set.
  static SolverOptions solver_options(const BlockOptions& block, const SolverOptions& options) {
    SolverOptions o = options;
    const bool inner_solves = block.first_tolerance > 0 || block.second_tolerance > 0;
    o.method = block.kind == BlockKind::diagonal ? "MINRES" : inner_solves ? "Flexible GMRES" : "GMRES";
    return o;
  }

  /// @return the first field's block A (copied from p, or a BlockOperator's own).
  const Teuchos::RCP<CrsMatrix>& first_block() const { return a_; }
  /// @return the Schur approximation S (copied from p, or the caller's own).
  const Teuchos::RCP<CrsMatrix>& second_block() const { return s_; }

 private:
  // Field-sized vectors for apply(), made again when the number of columns changes.
  struct Work {
    std::size_t columns = 0;
    Teuchos::RCP<MultiVector<double>> xu, xp, yu, yp, z;
    Work() = default;
    // maps: the two fields' (the blocks' own), then the whole system's.
    Work(const std::array<Teuchos::RCP<const Map>, 3>& maps, std::size_t k)
        : columns(k),
          xu(Teuchos::rcp(new MultiVector<double>(maps[0], k))),
          xp(Teuchos::rcp(new MultiVector<double>(maps[1], k))),
          yu(Teuchos::rcp(new MultiVector<double>(maps[0], k))),
          yp(Teuchos::rcp(new MultiVector<double>(maps[1], k))),
          z(Teuchos::rcp(new MultiVector<double>(maps[2], k))) {}
  };

  // Collective (one agreement): k's and p's row, domain and range maps are
  // the fields' row map on every process, or every process throws the same
  // ValidationError (key "matrix" or "preconditioning matrix", the rank and
  // its number of rows there).
  void check_layouts(const CrsMatrix& k, const CrsMatrix& p) const {
    const auto& rows = *fields_.row_map();
    const int rank = rows.getComm()->getRank();
    std::vector<Problem> problems;
    const std::pair<const char*, const CrsMatrix*> matrices[] = {{"matrix", &k}, {"preconditioning matrix", &p}};
    for (const auto& [key, m] : matrices)
      if (!m->getRowMap()->locallySameAs(rows) || !m->getDomainMap()->locallySameAs(rows) ||
          !m->getRangeMap()->locallySameAs(rows))
        problems.push_back(Problem::of(rank, key, std::to_string(compat::local_num_elements(*m->getRowMap())) + " rows",
                                       "its rows are the fields' rows (" +
                                           std::to_string(compat::local_num_elements(rows)) + " here), in their order",
                                       "a matrix on another layout than the fields'"));
    mpi::agree(problems, mpi_comm_of(*rows.getComm()));
  }

  // The inner inverses of A and S.
  void set_up(const BlockOptions& options) {
    a_inverse_ = inverse(a_, make_preconditioner(a_, options.first, options.first_parameters,
                                                 options.first_equations_per_node, options.first_near_nullspace),
                         options.first_tolerance, options.inner_max_iterations);
    s_inverse_ = inverse(s_, make_preconditioner(s_, options.second, options.second_parameters),
                         options.second_tolerance, options.inner_max_iterations);
  }

  // Field f's map as the blocks have it (A's for the first, S's for the second).
  Teuchos::RCP<const Map> map_of(std::size_t f) const { return f == 0 ? a_->getRangeMap() : s_->getRangeMap(); }

  // The block's inverse: its preconditioner once (tolerance 0), or CG with it.
  static Teuchos::RCP<Operator> inverse(const Teuchos::RCP<CrsMatrix>& block, const Teuchos::RCP<Operator>& prec,
                                        double tolerance, int max_iterations) {
    if (tolerance <= 0) return prec;
    return Teuchos::rcp(new InnerSolve(block, prec, tolerance, max_iterations));
  }

  // Where field f's rows start on this process (fields in blocks).
  std::size_t offset(std::size_t f) const {
    const auto& rows = fields_.owned_rows(f);
    return rows.empty() ? 0 : static_cast<std::size_t>(rows.front());
  }
  // x's field f copied into `to`.
  Teuchos::RCP<const MultiVector<double>> copied(const MultiVector<double>& x, std::size_t f,
                                                 MultiVector<double>& to) const {
    fields_.copy_field_to(x, f, to);
    return Teuchos::rcpFromRef(to);
  }

  FieldSplit fields_;  // (a copy: the caller's may go)
  BlockKind kind_;
  Teuchos::RCP<CrsMatrix> a_, s_, bt_;
  Teuchos::RCP<Operator> a_inverse_, s_inverse_;
  mutable Work work_;
};

/// Collective over k's communicator. Solves k x = b in place on x (every
/// column; x's values the initial guess) with Belos and a block
/// preconditioner: MINRES with the diagonal kind, GMRES with the upper
/// triangular one (both preconditioned on the left, as solve_with() does:
/// GMRES then measures the preconditioned residual; the returned one is the
/// true one, recomputed), or Flexible GMRES, on the right, when a block is
/// inverted by an inner solve (BlockOptions::first_tolerance).
/// @param fields the two fields of k's rows.
/// @param k the system matrix, [[A, B^T], [B, -C]] in the fields' terms.
/// @param p the preconditioning matrix (see BlockPreconditioner).
/// @param x the solution, on k's row map (a view of a DAP array, say).
/// @param b the right-hand side, on k's row map.
/// @param block the block preconditioner's kind and inner preconditioners.
/// @param options the tolerance and iteration limit (method and
///   preconditioner fields not read: the kind decides).
/// @return iterations, the recomputed relative residual |b - k x| / |b|, and
///   whether Belos converged.
inline SolveResult solve_block_system(const FieldSplit& fields, const Teuchos::RCP<CrsMatrix>& k, const CrsMatrix& p,
                                      const Teuchos::RCP<MultiVector<double>>& x,
                                      const Teuchos::RCP<MultiVector<double>>& b, const BlockOptions& block,
                                      const SolverOptions& options = {}) {
  auto prec = Teuchos::rcp(new BlockPreconditioner(fields, *k, p, block));
  return solve_with(k, x, b, prec, BlockPreconditioner::solver_options(block, options));
}

/// Collective over k's communicator. The same for a system held as
/// separate blocks (BlockOperator), with S given as its own matrix; x and
/// b are on k's map over every field (each field a view: k.fields()).
/// @param k the system's blocks (two fields).
/// @param s the Schur approximation on the second field's map.
/// @param x the solution, on k's domain map.
/// @param b the right-hand side, on k's range map.
/// @param block the block preconditioner's kind and inner preconditioners.
/// @param options the tolerance and iteration limit.
/// @return iterations, the recomputed relative residual, and whether Belos converged.
inline SolveResult solve_block_system(const Teuchos::RCP<const BlockOperator>& k, const Teuchos::RCP<CrsMatrix>& s,
                                      const Teuchos::RCP<MultiVector<double>>& x,
                                      const Teuchos::RCP<MultiVector<double>>& b, const BlockOptions& block,
                                      const SolverOptions& options = {}) {
  auto prec = Teuchos::rcp(new BlockPreconditioner(*k, s, block));
  return solve_with(k, x, b, prec, BlockPreconditioner::solver_options(block, options));
}

}  // namespace dapetra::tpetra

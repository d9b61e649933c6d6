"""Vector-valued systems: 2-D linear elasticity assembled by DOLFINx (vector
P1, unknowns interleaved per node), solved through dapetra.solve with MueLu
told the rigid-body modes (coordinates=) or given them (near_nullspace=),
against PETSc's own CG + GAMG on the same system: the same solution, and
MueLu's iterations no longer those of a scalar problem."""
import os
import sys

import numpy as np
import pytest
from mpi4py import MPI

import dapetra

dolfinx = pytest.importorskip("dolfinx")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
import ufl  # noqa: E402
from dolfinx import fem, mesh  # noqa: E402
from dolfinx.fem.petsc import apply_lifting, assemble_matrix, assemble_vector, set_bc  # noqa: E402
from petsc4py import PETSc  # noqa: E402

from dolfinx_compat import vector_lagrange_space  # noqa: E402

pytestmark = pytest.mark.skipif(not getattr(dapetra, "has_muelu", False), reason="built without MueLu")


class Elasticity:
    """A 2 x 1 plate (dim 2, plane strain; cut n x n/2) or a 2 x 1 x 1 beam
    (dim 3; n x n/2 x n/2), clamped on its left side under its own weight
    (E = 1, nu = 0.3)."""

    def __init__(self, comm, n, dim=2):
        if dim == 2:
            msh = mesh.create_rectangle(comm, [np.array([0.0, 0.0]), np.array([2.0, 1.0])], [n, n // 2],
                                        mesh.CellType.triangle)
        else:
            msh = mesh.create_box(comm, [np.array([0.0, 0.0, 0.0]), np.array([2.0, 1.0, 1.0])], [n, n // 2, n // 2],
                                  mesh.CellType.tetrahedron)
        V = vector_lagrange_space(msh, dim)
        E, nu = 1.0, 0.3
        mu, lam = E / (2 * (1 + nu)), E * nu / ((1 + nu) * (1 - 2 * nu))
        u, v = ufl.TrialFunction(V), ufl.TestFunction(V)
        eps = lambda w: ufl.sym(ufl.grad(w))
        sigma = lambda w: 2 * mu * eps(w) + lam * ufl.tr(eps(w)) * ufl.Identity(dim)
        a = fem.form(ufl.inner(sigma(u), eps(v)) * ufl.dx)
        gravity = np.zeros(dim, dtype=PETSc.ScalarType)
        gravity[-1] = -1.0
        L = fem.form(ufl.inner(fem.Constant(msh, gravity), v) * ufl.dx)
        clamped = mesh.locate_entities_boundary(msh, dim - 1, lambda x: np.isclose(x[0], 0.0))
        bc = fem.dirichletbc(np.zeros(dim, dtype=PETSc.ScalarType), fem.locate_dofs_topological(V, dim - 1, clamped), V)
        self.A = assemble_matrix(a, bcs=[bc])
        self.A.assemble()
        self.b = assemble_vector(L)
        apply_lifting(self.b, [a], bcs=[[bc]])
        self.b.ghostUpdate(addv=PETSc.InsertMode.ADD, mode=PETSc.ScatterMode.REVERSE)
        set_bc(self.b, [bc])
        owned_nodes = V.dofmap.index_map.size_local
        self.coordinates = np.ascontiguousarray(V.tabulate_dof_coordinates()[:owned_nodes, :dim])
        # DOLFINx's objects outlive the Mat and Vec they made (with DOLFINx
        # 0.11, the Vec's memory goes with them: a solve crashed without this).
        self.keep = (msh, V, a, L, bc)
        self.lo, self.hi = self.A.getOwnershipRange()
        self.size = self.A.getSize()[0]
        self.comm = comm

    def protocol(self, values):
        """A DAP dict over this process's owned unknowns."""
        return {"__version__": "0.10.0", "buffer": values,
                "dim_data": ({"dist_type": "b", "size": self.size, "proc_grid_size": self.comm.size,
                              "proc_grid_rank": self.comm.rank, "start": self.lo, "stop": self.hi},)}

    def matrix(self):
        return dapetra.CrsMatrix.from_csr(self.protocol(np.zeros(self.hi - self.lo)), *self.A.getValuesCSR(),
                                          first_row=self.lo, comm=self.comm)

    def petsc_solution(self):
        x = self.b.duplicate()
        ksp = PETSc.KSP().create(self.comm)
        ksp.setOperators(self.A)
        ksp.setType("cg")
        ksp.getPC().setType("gamg")
        ksp.setTolerances(rtol=1e-12, atol=1e-300, max_it=5000)
        ksp.solve(self.b, x)
        assert ksp.getConvergedReason() > 0
        return x.array.copy()


def rigid_body_modes(coordinates):
    """The rigid-body modes over the interleaved unknowns, by hand: the
    translations, then the rotations (2-D: (-y, x); 3-D: about x, y, z)."""
    n, dim = coordinates.shape
    x = [coordinates[:, k] for k in range(dim)]
    modes = np.zeros((dim * n, 3 if dim == 2 else 6))
    for k in range(dim):
        modes[k::dim, k] = 1.0
    rotations = [((0, -x[1]), (1, x[0]))] if dim == 2 else [((1, -x[2]), (2, x[1])), ((0, x[2]), (2, -x[0])),
                                                            ((0, -x[1]), (1, x[0]))]
    for r, rotation in enumerate(rotations):
        for component, values in rotation:
            modes[component::dim, dim + r] = values
    return modes


@pytest.mark.parametrize("dim", [2, 3])
def test_python_builds_the_same_rigid_body_modes_as_cpp(comm, dim):
    # dapetra.rigid_body_modes is what solve(coordinates=) hands MueLu
    # (dapetra::tpetra::rigid_body_modes); the modes by hand, from the
    # formulas, on random coordinates: equal entry by entry.
    coordinates = np.random.default_rng(41 + comm.rank).uniform(-3, 3, size=(17, dim))
    got = dapetra.rigid_body_modes(coordinates)
    assert got.shape == (17 * dim, 3 if dim == 2 else 6)
    np.testing.assert_array_equal(got, rigid_body_modes(coordinates))
    with pytest.raises(ValueError):
        dapetra.rigid_body_modes(coordinates[:, :1])


@pytest.mark.parametrize("dim, n", [(2, 40), (3, 12)])
def test_rigid_body_modes_make_muelu_converge_as_for_an_elastic_body(comm, dim, n):
    system = Elasticity(comm, n, dim)
    A, want = system.matrix(), system.petsc_solution()
    b = system.protocol(system.b.array)
    scale = comm.allreduce(float(np.abs(want).max()), op=MPI.MAX)
    iterations = {}
    for how, extra in (("scalar", {}), ("coordinates", {"coordinates": system.coordinates}),
                       ("modes", {"near_nullspace": rigid_body_modes(system.coordinates), "equations_per_node": dim})):
        x = np.zeros(system.hi - system.lo)
        its, residual = dapetra.solve(A, b, system.protocol(x), preconditioner="MueLu", tolerance=1e-10,
                                      max_iterations=2000, **extra)
        assert residual < 1e-9, (how, residual)
        # The same solution as PETSc's: within what the residuals allow.
        assert comm.allreduce(float(np.abs(x - want).max()), op=MPI.MAX) < 1e-6 * scale, how
        iterations[how] = its
    if comm.rank == 0:
        print(f"{dim}-D MueLu iterations:", iterations)
    # Told the modes, MueLu needs far fewer iterations than treating every
    # unknown as its own scalar equation; given them by hand, as many as
    # built from the coordinates, give or take one: sid's MueLu (Trilinos
    # 16.1) took 29 and 30 for the same modes at 4 processes (Debian 12's
    # takes the same count for both).
    assert iterations["coordinates"] * 2 < iterations["scalar"], iterations
    assert abs(iterations["modes"] - iterations["coordinates"]) <= 1, iterations


def test_near_nullspace_arguments_wrong_on_one_process_raise_on_every_process(comm):
    system = Elasticity(comm, 8)
    A, b = system.matrix(), system.protocol(system.b.array)
    good = {"coordinates": system.coordinates}
    for bad in range(comm.size):
        here = comm.rank == bad
        for spoiled, key in (({"coordinates": system.coordinates[:, :1]}, "coordinates"),
                             ({"near_nullspace": np.zeros((3, 3))}, "near_nullspace"),
                             ({"coordinates": system.coordinates, "near_nullspace": rigid_body_modes(system.coordinates)},
                              "coordinates")):
            with pytest.raises(dapetra.ValidationError) as e:
                dapetra.solve(A, b, system.protocol(np.zeros(system.hi - system.lo)), preconditioner="MueLu",
                              **(spoiled if here else good))
            assert [(p["rank"], p["key"]) for p in e.value.problems] == [(bad, key)], e.value.problems
        if comm.size > 1:  # given on one process only: the processes disagree
            with pytest.raises(dapetra.ValidationError) as e:
                dapetra.solve(A, b, system.protocol(np.zeros(system.hi - system.lo)), preconditioner="MueLu",
                              **(good if here else {}))
            assert {p["key"] for p in e.value.problems} == {"near_nullspace"}, e.value.problems

// The unit cube with a spherical cavity, P1 tetrahedra (3-D).
//   gmsh -3 -format msh41 box_with_hole.geo -o box_with_hole.msh
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 1, 1};
Sphere(2) = {0.5, 0.5, 0.5, 0.25};
BooleanDifference{ Volume{1}; Delete; }{ Volume{2}; Delete; }
Mesh.CharacteristicLengthMax = 0.12;
Mesh.Binary = 0;

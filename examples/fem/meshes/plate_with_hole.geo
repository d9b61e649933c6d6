// A unit square plate with a circular hole, P1 triangles (2-D).
//   gmsh -2 -format msh41 plate_with_hole.geo -o plate_with_hole.msh
SetFactory("OpenCASCADE");
Rectangle(1) = {0, 0, 0, 1, 1};
Disk(2) = {0.6, 0.45, 0, 0.18};
BooleanDifference{ Surface{1}; Delete; }{ Surface{2}; Delete; }
Mesh.CharacteristicLengthMax = 0.04;
Mesh.Binary = 0;

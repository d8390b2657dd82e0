import CGtk
print("clustermap")

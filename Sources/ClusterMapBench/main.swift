print("clustermap-bench: nothing yet")

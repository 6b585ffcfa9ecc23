// LiveLayers: Core Animation's layer tree on the Raster renderer (being built: issue 4).
import Raster

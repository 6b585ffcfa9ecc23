// RasterTestSupport: golden-image comparison shared by the test targets (being built: issue 3).
import Raster

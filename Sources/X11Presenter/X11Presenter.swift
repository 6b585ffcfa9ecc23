// X11Presenter: the X11 window, MIT-SHM blit and events (being built: issue 5).
internal import CX11
import Raster

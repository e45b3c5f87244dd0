// Placement of images on a synthetic event-time screen.
import Testing
@testable import ShotguardAgent
import ShotguardImaging

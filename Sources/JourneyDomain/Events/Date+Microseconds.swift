import Foundation
import Timestamps

extension Date {
    /// This date at the nearest whole microsecond, the precision events keep.
    var roundedToMicroseconds: Date { RFC3339.roundedToMicroseconds(self) }
}

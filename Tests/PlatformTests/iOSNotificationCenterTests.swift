import Testing
import AppLogic
@testable import Platform

@Suite struct iOSNotificationCenterTests {
    let alert = LocalNotification(kind: .testAvailable, badge: nil)
    let badged = LocalNotification(kind: .testAvailable, badge: 4)

    @Test func authorizationRequestsFromEveryState() {
        typealias Row = (from: NotificationAuthorization, request: NotificationCenterModel.AuthorizationRequest, allows: Bool,
                         to: NotificationAuthorization, prompted: Bool)
        let table: [Row] = [
            (.notDetermined, .provisional, false, .provisional, false),
            (.notDetermined, .full, true, .authorized, true),
            (.notDetermined, .full, false, .denied, true),
            (.provisional, .full, true, .authorized, true),
            (.provisional, .full, false, .denied, true),
            (.provisional, .provisional, true, .provisional, false),
            (.authorized, .full, false, .authorized, false),
            (.authorized, .provisional, false, .authorized, false),
            (.denied, .full, true, .denied, false),
            (.denied, .provisional, true, .denied, false),
        ]
        for row in table {
            var centre = NotificationCenterModel(authorization: row.from)
            let prompted = centre.requestAuthorization(row.request, userAllows: row.allows)
            #expect(prompted == row.prompted, "\(row)")
            #expect(centre.authorization == row.to, "\(row)")
        }
    }

    @Test func presentationByAuthorization() {
        let expected: [(NotificationAuthorization, NotificationCenterModel.Presentation, UInt16)] = [
            (.notDetermined, .notShown, 0), (.denied, .notShown, 0), (.provisional, .quiet, 1), (.authorized, .alert, 1),
        ]
        for (status, presentation, delivered) in expected {
            var centre = NotificationCenterModel(authorization: status)
            let shown = centre.post(alert)
            #expect(shown == presentation)
            #expect(centre.delivered == delivered)
        }
    }

    @Test func theBadgeIsTheNumberTheAppSetsShownOnlyWhenAuthorized() {
        var centre = NotificationCenterModel(authorization: .authorized)
        _ = centre.post(alert)
        #expect(centre.badgeNumber == 0)
        _ = centre.post(badged)
        #expect(centre.visibleBadge == 4)
        centre.setBadge(1)
        #expect(centre.visibleBadge == 1)
        centre.setBadge(-3)
        #expect(centre.badgeNumber == 0)
        var quiet = NotificationCenterModel(authorization: .provisional)
        _ = quiet.post(badged)
        #expect(quiet.badgeNumber == 4)
        #expect(quiet.visibleBadge == 0)
        var denied = NotificationCenterModel(authorization: .denied)
        _ = denied.post(badged)
        #expect(denied.badgeNumber == 0)
        centre.settingsChanged(to: .denied)
        #expect(centre.visibleBadge == 0)
        centre.clearDelivered()
        #expect(centre.delivered == 0)
    }
}

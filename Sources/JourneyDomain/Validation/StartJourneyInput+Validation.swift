extension StartJourneyInput {
    /// Checks every field and returns typed values, or every problem found, each naming its field.
    public func validated() throws(ValidationError) -> ValidatedStartJourney {
        var collector = IssueCollector()
        let environment = collector.take(FieldRules.environment(environment))
        let flow = collector.take(FieldRules.flow(flow))
        let purpose = collector.take(FieldRules.purpose(purpose))
        let reference = clientReference.flatMap { collector.take(FieldRules.clientReference($0)) }
        var validSubject: ValidatedSubject?
        if let subject {
            validSubject = Self.validate(subject, into: &collector)
        } else {
            collector.add(FieldRules.required("subject"))
        }

        guard collector.issues.isEmpty, let environment, let flow, let purpose, let validSubject else {
            throw ValidationError(issues: collector.issues)
        }
        return ValidatedStartJourney(
            environment: environment,
            flow: flow,
            purpose: purpose,
            subject: validSubject,
            clientReference: reference
        )
    }

    private static func validate(_ subject: SubjectInput, into collector: inout IssueCollector) -> ValidatedSubject? {
        let before = collector.issues.count
        let type = collector.take(FieldRules.documentType(subject.documentType))
        let number = collector.take(FieldRules.documentNumber(subject.documentNumber, type: type))
        let name = subject.name.flatMap {
            collector.take(FieldRules.text($0, field: "subject.name", maximum: FieldRules.nameMaximumLength))
        }
        let friendlyName = subject.friendlyName.flatMap {
            collector.take(FieldRules.text($0, field: "subject.friendlyName", maximum: FieldRules.friendlyNameMaximumLength))
        }
        let phone = subject.phone.flatMap { collector.take(FieldRules.phone($0)) }
        let email = subject.email.flatMap { collector.take(FieldRules.email($0)) }
        let channels = notificationChannels(subject, into: &collector)

        guard collector.issues.count == before, let type, let number else { return nil }
        return ValidatedSubject(
            documentType: type,
            documentNumber: number,
            name: name,
            friendlyName: friendlyName,
            phone: phone,
            email: email,
            notificationChannels: channels
        )
    }

    /// Known channels without duplicates; SMS and WhatsApp need a phone, e-mail needs an address.
    private static func notificationChannels(
        _ subject: SubjectInput,
        into collector: inout IssueCollector
    ) -> [NotificationChannel] {
        var channels: [NotificationChannel] = []
        for (index, raw) in subject.notificationChannels.enumerated() {
            let field = "subject.notificationChannels[\(index)]"
            guard let channel = NotificationChannel(rawValue: raw) else {
                let allowed = NotificationChannel.allCases.map(\.rawValue).joined(separator: ", ")
                collector.add(FieldIssue(field: field, code: .invalidValue, message: "\(field) must be one of \(allowed)"))
                continue
            }
            if !channels.contains(channel) { channels.append(channel) }
        }
        for channel in channels {
            let (field, present) =
                channel == .email
                ? ("subject.email", subject.email != nil)
                : ("subject.phone", subject.phone != nil)
            if !present, !collector.issues.contains(where: { $0.field == field }) {
                collector.add(FieldIssue(field: field, code: .required, message: "\(field) is required for \(channel.rawValue)"))
            }
        }
        return channels
    }
}

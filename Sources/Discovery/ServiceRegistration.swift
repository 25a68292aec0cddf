import CAvahi

/// One advertised service and the avahi entry group that carries it.
///
/// Each service has its own entry group so that one can be updated, withdrawn or renamed after a
/// collision without touching the others. Every field is guarded by the publisher's avahi poll lock.
final class ServiceRegistration {
    let id: ServiceID
    unowned let publisher: ServicePublisher
    var service: AdvertisedService
    /// The requested name, or avahi's alternative after a collision; kept across avahi restarts so the
    /// service comes back under the name senders already know.
    var nameToPublish: String
    var group: OpaquePointer?
    /// Whether avahi has accepted `nameToPublish` into the group.
    var added = false
    var status: PublishedService.Status = .pending

    init(id: ServiceID, publisher: ServicePublisher, service: AdvertisedService) {
        self.id = id
        self.publisher = publisher
        self.service = service
        self.nameToPublish = service.name
    }

    var snapshot: PublishedService {
        PublishedService(
            id: id, requestedName: service.name, publishedName: added ? nameToPublish : nil, status: status)
    }

    /// Moves to avahi's next alternative name ("Name" -> "Name #2" -> "Name #3").
    func takeAlternativeName() {
        guard let alternative = avahi_alternative_service_name(nameToPublish) else { return }
        nameToPublish = String(cString: alternative)
        avahi_free(alternative)
    }

    /// Adds the service to its group under `nameToPublish`, taking alternative names while avahi reports
    /// a local collision, and commits the group. The caller holds the poll lock and has a reset group.
    func addAndCommit() {
        guard let group else { return }
        added = false
        // avahi's alternatives never repeat, so a bound only guards against a daemon that collides forever.
        for _ in 0..<32 {
            let code = TXTStringList.withList(service.txtRecord) { list in
                avahi_entry_group_add_service_strlst(
                    group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0),
                    nameToPublish, service.type, nil, nil, service.port, list)
            }
            if Int(code) == AVAHI_ERR_COLLISION {
                takeAlternativeName()
                continue
            }
            guard code == 0 else {
                status = .failed(DiscoveryError(avahiCode: code))
                return
            }
            added = true
            let committed = avahi_entry_group_commit(group)
            status = committed == 0 ? .pending : .failed(DiscoveryError(avahiCode: committed))
            return
        }
        status = .failed(DiscoveryError(avahiCode: Int32(AVAHI_ERR_COLLISION)))
    }

    /// Reacts to a change of the entry group's state; runs on the poll thread holding its lock.
    func groupChanged(_ group: OpaquePointer, to state: AvahiEntryGroupState) {
        // `avahi_entry_group_new` calls back before it returns the group.
        self.group = group
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            status = .established
        case AVAHI_ENTRY_GROUP_COLLISION:
            // Another host on the link holds the name: avahi has withdrawn ours; try the next one.
            takeAlternativeName()
            avahi_entry_group_reset(group)
            addAndCommit()
        case AVAHI_ENTRY_GROUP_FAILURE:
            status = .failed(DiscoveryError(avahiCode: avahi_client_errno(avahi_entry_group_get_client(group))))
        default:
            break
        }
    }
}

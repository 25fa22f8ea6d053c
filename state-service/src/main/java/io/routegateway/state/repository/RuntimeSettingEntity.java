package io.routegateway.state.repository;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/**
 * A row of {@code runtime_settings}: one text value per key. The keys, their defaults and bounds are
 * {@code core.policy.RuntimeSettings}.
 */
@Entity
@Table(name = "runtime_settings")
public class RuntimeSettingEntity extends PanacheEntityBase {

    @Id
    public String key;

    @Column(nullable = false)
    public String value;

    public RuntimeSettingEntity() {}

    public RuntimeSettingEntity(String key, String value) {
        this.key = key;
        this.value = value;
    }
}

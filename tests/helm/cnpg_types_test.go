package helm

// The CloudNativePG resources the chart renders, for strict decoding. The
// operator's own Go types (github.com/cloudnative-pg/cloudnative-pg/api/v1)
// are not served by the Go module proxy this project may use (it answers
// 403 for every module of github.com/cloudnative-pg), and neither its CRD
// schemas nor an equivalent come from a package registry. So these structs
// declare the fields of postgresql.cnpg.io/v1 that the chart writes (and
// the ones values-*.yaml and the tests make it write), with the JSON names
// of CloudNativePG's api/v1 (ClusterSpec in cluster_types.go,
// ScheduledBackupSpec in scheduledbackup_types.go, release 1.30):
// a misspelt or misplaced field of the chart fails to decode. A field the
// chart starts to write must be added here, checked against that API.

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type cnpgCluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              cnpgClusterSpec `json:"spec"`
}

type cnpgClusterSpec struct {
	Instances             int                         `json:"instances"`
	ImageName             string                      `json:"imageName,omitempty"`
	PrimaryUpdateStrategy string                      `json:"primaryUpdateStrategy,omitempty"`
	Bootstrap             *cnpgBootstrap              `json:"bootstrap,omitempty"`
	Storage               cnpgStorage                 `json:"storage,omitempty"`
	Affinity              cnpgAffinity                `json:"affinity,omitempty"`
	Resources             corev1.ResourceRequirements `json:"resources,omitempty"`
	PostgreSQL            cnpgPostgresConfiguration   `json:"postgresql,omitempty"`
	Monitoring            *cnpgMonitoring             `json:"monitoring,omitempty"`
	Backup                *cnpgBackup                 `json:"backup,omitempty"`
	Plugins               []cnpgPlugin                `json:"plugins,omitempty"`
}

type cnpgBootstrap struct {
	InitDB *cnpgInitDB `json:"initdb,omitempty"`
}

type cnpgInitDB struct {
	Database string `json:"database,omitempty"`
	Owner    string `json:"owner,omitempty"`
}

type cnpgStorage struct {
	StorageClass *string `json:"storageClass,omitempty"`
	Size         string  `json:"size,omitempty"`
}

type cnpgAffinity struct {
	EnablePodAntiAffinity *bool  `json:"enablePodAntiAffinity,omitempty"`
	TopologyKey           string `json:"topologyKey,omitempty"`
}

type cnpgPostgresConfiguration struct {
	Parameters  map[string]string      `json:"parameters,omitempty"`
	Synchronous *cnpgSynchronousConfig `json:"synchronous,omitempty"`
}

// SynchronousReplicaConfiguration of api/v1 (cluster_types.go).
type cnpgSynchronousConfig struct {
	Method         string `json:"method"`
	Number         int    `json:"number"`
	DataDurability string `json:"dataDurability,omitempty"`
}

type cnpgMonitoring struct {
	EnablePodMonitor bool `json:"enablePodMonitor,omitempty"`
}

type cnpgBackup struct {
	VolumeSnapshot  *cnpgVolumeSnapshot `json:"volumeSnapshot,omitempty"`
	RetentionPolicy string              `json:"retentionPolicy,omitempty"`
	Target          string              `json:"target,omitempty"`
}

type cnpgVolumeSnapshot struct {
	ClassName    string `json:"className,omitempty"`
	WalClassName string `json:"walClassName,omitempty"`
	Online       *bool  `json:"online,omitempty"`
}

type cnpgPlugin struct {
	Name          string            `json:"name"`
	Enabled       *bool             `json:"enabled,omitempty"`
	IsWALArchiver *bool             `json:"isWALArchiver,omitempty"`
	Parameters    map[string]string `json:"parameters,omitempty"`
}

type cnpgScheduledBackup struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              cnpgScheduledBackupSpec `json:"spec"`
}

type cnpgScheduledBackupSpec struct {
	Schedule             string                      `json:"schedule"`
	Cluster              corev1.LocalObjectReference `json:"cluster"`
	BackupOwnerReference string                      `json:"backupOwnerReference,omitempty"`
	Immediate            *bool                       `json:"immediate,omitempty"`
	Method               string                      `json:"method,omitempty"`
	PluginConfiguration  *cnpgBackupPlugin           `json:"pluginConfiguration,omitempty"`
}

type cnpgBackupPlugin struct {
	Name       string            `json:"name"`
	Parameters map[string]string `json:"parameters,omitempty"`
}

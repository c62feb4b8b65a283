# Node Health host check for Windows: the facts about this host that the Node Health diagnosis needs, as one
# JSON document ("format": "node-health-host/v1") on standard output, and nothing else there.
#
# Run it in an administrator Windows PowerShell 5.1 on the host of a Windows worker:
#   powershell -NoProfile -ExecutionPolicy Bypass -File .\node-health-host-check.ps1 [-Offline]
# It only reads: it changes no file, restarts no service and sends no credential anywhere. -Offline skips the
# one request it makes (a HEAD request to the Rancher server, for its Date header, to measure the clock offset).
#
# From files that hold credentials it reads only what it prints: the connection info's secretName, namespace
# and server URL (never its kubeconfig or token), and the node-name line of the RKE2 config (never its token
# lines). Event messages it prints are cut to the known signatures, one sample each, with credentials
# replaced by [redacted].

param([switch]$Offline)

$ErrorActionPreference = 'SilentlyContinue'
$LogEvents = 500
$Notes = New-Object System.Collections.ArrayList
$MissingTools = New-Object System.Collections.ArrayList

function Convert-ToUtc($Value) {
  if ($null -eq $Value) { return $null }
  try { return ([datetime]$Value).ToUniversalTime().ToString('yyyy-MM-ddTHH:mm:ssZ') } catch { return $null }
}

# Credentials in a log line replaced by [redacted], following the export's rules (export/redact.ts): PEM
# blocks, JWTs, RKE2/K3s join tokens, user:password@ in URLs, bearer headers, token and password flags and
# key=value or key: value assignments.
function Protect-Line([string]$Line) {
  $words = '(token|passw(or)?d|passphrase|pwd|secret|api[_-]?key|access[_-]?key|private[_-]?key|kubeconfig)'
  $out = $Line -replace '-----BEGIN [A-Z0-9 ]+-----.*', '[redacted]'
  $out = $out -replace 'eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_.-]*', '[redacted]'
  $out = $out -replace 'K10[0-9a-fA-F]{8,}::[^\s:''"]+:[^\s''",;]+', '[redacted]'
  $out = $out -replace '([a-z][a-z0-9+.-]*://)[^\s/@:''"]+:[^\s/@''"]+@', '$1[redacted]@'
  $out = $out -replace '(Bearer|Basic)(\s+)[A-Za-z0-9._~+/-]{8,}=*', '$1$2[redacted]'
  $out = $out -replace ('(^|[\s"''\[,(])(--?[A-Za-z0-9-]*' + $words + ')(\s*=\s*|\s+)("[^"]*"|''[^'']*''|[^\s''",]+)'), '$1$2$5[redacted]'
  $out = $out -replace ('([\w.-]*' + $words + '[\w.-]*)(["'']?\s*[=:]\s*)("[^"]*"|''[^'']*''|[^\s''",;&}]+)'), '$1$4[redacted]'
  if ($out.Length -gt 400) { $out = $out.Substring(0, 400) }
  return $out
}

function Get-ServiceFacts([string]$Name) {
  $service = Get-Service -Name $Name
  if ($null -eq $service) {
    return [ordered]@{ name = $Name; loaded = $false; state = $null; subState = $null; restarts = $null; since = $null }
  }
  $since = $null
  $cim = Get-CimInstance -ClassName Win32_Service -Filter ("Name='" + $Name + "'")
  if ($cim -and $cim.ProcessId) {
    $process = Get-Process -Id $cim.ProcessId
    if ($process) { $since = Convert-ToUtc $process.StartTime }
  }
  return [ordered]@{ name = $Name; loaded = $true; state = $service.Status.ToString().ToLower(); subState = $null; restarts = $null; since = $since }
}

# ------------------------------------------------------------------------------------------------ identity

$hostname = $env:COMPUTERNAME
$nodeNameValue = [Environment]::GetEnvironmentVariable('CATTLE_NODE_NAME', 'Machine')
$nodeNameSource = $null
if ($nodeNameValue) { $nodeNameSource = 'CATTLE_NODE_NAME' }
$configFile = 'C:\etc\rancher\rke2\config.yaml'
if (-not $nodeNameValue -and (Test-Path -LiteralPath $configFile)) {
  foreach ($line in (Get-Content -LiteralPath $configFile)) {
    if ($line -match '^\s*"?node-name"?\s*:\s*["'']?([^"''#\s]+)') {
      $nodeNameValue = $Matches[1]
      $nodeNameSource = $configFile
    }
  }
}

# The agent's id, which Rancher keeps as the Machine's rke.cattle.io/machine-id label.
$machineId = $null
foreach ($candidate in @('C:\etc\rancher\wins\cattle-id', 'C:\etc\rancher\agent\cattle-id')) {
  if (-not $machineId -and (Test-Path -LiteralPath $candidate)) {
    $cattleId = (Get-Content -LiteralPath $candidate -Raw).Trim()
    if ($cattleId) { $machineId = $cattleId }
  }
}

$isAdmin = ([Security.Principal.WindowsPrincipal][Security.Principal.WindowsIdentity]::GetCurrent()).IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)
if (-not $isAdmin) { [void]$Notes.Add('not run as administrator: files only administrators may read are reported as absent') }

# ------------------------------------------------------------------------------------------------ services

$agent = Get-ServiceFacts 'rancher-wins'
$distroServices = @()
$distro = $null
$rke2 = Get-ServiceFacts 'rke2'
if ($rke2.loaded) {
  $distroServices = @($rke2)
  $distro = 'rke2'
}

# ------------------------------------------------------------------------------------------------ connection info

$ciPath = 'C:\var\lib\rancher\agent\rancher2_connection_info.json'
$ci = [ordered]@{ path = $ciPath; present = $false; size = $null; parses = $null; secretName = $null; namespace = $null; server = $null }
if (Test-Path -LiteralPath $ciPath) {
  $ci.present = $true
  $ci.size = (Get-Item -LiteralPath $ciPath).Length
  $ci.parses = $false
  if ($ci.size -gt 0) {
    try {
      $parsed = Get-Content -LiteralPath $ciPath -Raw | ConvertFrom-Json
      if ($parsed.secretName -and $parsed.namespace -and $parsed.kubeConfig) { $ci.parses = $true }
      $ci.secretName = [string]$parsed.secretName
      $ci.namespace = [string]$parsed.namespace
      # Only the server line of the kubeconfig is read, reduced to scheme://host[:port].
      if ([string]$parsed.kubeConfig -match 'server:\s*(https?://)(?:[^/@\s]*@)?([A-Za-z0-9.:\[\]-]+)') {
        $ci.server = $Matches[1] + $Matches[2]
      }
      $parsed = $null
    } catch {
      $ci.parses = $false
    }
  }
}

# ------------------------------------------------------------------------------------------------ logs

$signatureDefinitions = @(
  @{ id = 'agent-credentials'; source = 'agent'; text = 'the server has asked for the client to provide credentials'; also = $null },
  @{ id = 'connection-info-eof'; source = 'agent'; text = 'unable to parse connection info file: EOF'; also = $null },
  @{ id = 'ca-untrusted-fatal'; source = 'agent'; text = 'x509: certificate signed by unknown authority'; also = 'level=fatal' },
  @{ id = 'ca-strict-no-root'; source = 'agent'; text = 'Strict CA verification is enabled but encountered error finding root CA'; also = $null },
  @{ id = 'secret-too-old'; source = 'agent'; text = 'secret received was too old'; also = $null },
  @{ id = 'secret-older-than-last'; source = 'agent'; text = 'older than the last secret operated on'; also = $null },
  @{ id = 'node-password-rejected'; source = 'distro'; text = 'Node password rejected'; also = $null },
  @{ id = 'server-not-ready'; source = 'distro'; text = 'Waiting to retrieve agent configuration; server is not ready'; also = $null },
  @{ id = 'plan-instruction-failed'; source = 'agent'; text = 'error executing instruction'; also = $null }
)

# The last events of a provider, oldest first; an empty list when there are none, $null when unreadable.
# The leading comma keeps PowerShell from unrolling the list on return.
function Read-Events([string]$Provider) {
  try {
    return ,@(Get-WinEvent -FilterHashtable @{ LogName = 'Application'; ProviderName = $Provider } -MaxEvents $LogEvents -ErrorAction Stop | Sort-Object TimeCreated)
  } catch {
    if ($_.FullyQualifiedErrorId -like 'NoMatchingEventsFound*') { return ,@() }
    return $null
  }
}

function Get-Count($List) {
  if ($null -eq $List) { return $null }
  return $List.Count
}

$logs = @{ agent = (Read-Events 'rancher-wins'); distro = (Read-Events 'rke2') }
$signatures = New-Object System.Collections.ArrayList
foreach ($definition in $signatureDefinitions) {
  $events = $logs[$definition.source]
  if ($null -eq $events) { continue }
  $found = @($events | Where-Object { $_.Message -and $_.Message.Contains($definition.text) -and ((-not $definition.also) -or $_.Message.Contains($definition.also)) })
  if ($found.Count -eq 0) { continue }
  $last = $found[$found.Count - 1]
  [void]$signatures.Add([ordered]@{
    id = $definition.id
    source = $definition.source
    count = $found.Count
    first = Convert-ToUtc $found[0].TimeCreated
    last = Convert-ToUtc $last.TimeCreated
    sample = Protect-Line (($last.Message -split "`r?`n")[0])
  })
}

# ------------------------------------------------------------------------------------------------ certificates, clock, disk

$certificates = New-Object System.Collections.ArrayList
$kubeletCert = 'C:\var\lib\rancher\rke2\agent\serving-kubelet.crt'
if (Test-Path -LiteralPath $kubeletCert) {
  $notAfter = $null
  try { $notAfter = Convert-ToUtc (New-Object System.Security.Cryptography.X509Certificates.X509Certificate2 -ArgumentList $kubeletCert).NotAfter } catch { $notAfter = $null }
  [void]$certificates.Add([ordered]@{ name = 'kubelet'; path = $kubeletCert; notAfter = $notAfter })
}

$clock = [ordered]@{ checked = $false; reason = $null; server = $ci.server; serverDate = $null; offsetSeconds = $null }
if ($Offline) {
  $clock.reason = 'offline'
} elseif (-not $ci.server) {
  $clock.reason = 'no-server-url'
} else {
  try {
    [Net.ServicePointManager]::SecurityProtocol = [Net.SecurityProtocolType]::Tls12
    # Only the Date header is read; the certificate is not what this request checks.
    [Net.ServicePointManager]::ServerCertificateValidationCallback = { $true }
    $response = Invoke-WebRequest -Uri ($ci.server + '/ping') -Method Head -UseBasicParsing -TimeoutSec 10
    $localNow = [DateTime]::UtcNow
    $serverDate = [DateTime]::Parse($response.Headers['Date']).ToUniversalTime()
    $clock.checked = $true
    $clock.serverDate = $serverDate.ToString('yyyy-MM-ddTHH:mm:ssZ')
    $clock.offsetSeconds = [int][Math]::Round(($localNow - $serverDate).TotalSeconds)
  } catch {
    $clock.reason = 'request-failed'
  }
}

$diskPath = 'C:\var\lib\rancher'
$disk = [ordered]@{ path = $diskPath; present = (Test-Path -LiteralPath $diskPath); freeBytes = $null; totalBytes = $null }
$drive = New-Object System.IO.DriveInfo -ArgumentList 'C'
if ($drive) {
  $disk.freeBytes = $drive.AvailableFreeSpace
  $disk.totalBytes = $drive.TotalSize
}

# ------------------------------------------------------------------------------------------------ the document

$report = [ordered]@{
  format = 'node-health-host/v1'
  os = 'windows'
  collectedAt = [DateTime]::UtcNow.ToString('yyyy-MM-ddTHH:mm:ssZ')
  root = $isAdmin
  hostname = $hostname
  nodeName = [ordered]@{ value = $nodeNameValue; source = $nodeNameSource }
  machineId = $machineId
  distro = $distro
  agent = $agent
  distroServices = [object[]]$distroServices
  connectionInfo = $ci
  logs = [ordered]@{
    agent = [ordered]@{ read = ($null -ne $logs.agent); lines = (Get-Count $logs.agent) }
    distro = [ordered]@{ read = ($null -ne $logs.distro); lines = (Get-Count $logs.distro) }
  }
  signatures = [object[]]$signatures
  certificates = [object[]]$certificates
  clock = $clock
  disk = $disk
  missingTools = [object[]]$MissingTools
  notes = [object[]]$Notes
}

ConvertTo-Json -InputObject $report -Depth 6

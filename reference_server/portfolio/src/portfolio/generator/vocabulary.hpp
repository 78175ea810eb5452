// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#pragma once
// The Spanish vocabulary of the sample portfolio: states, units, types,
// frameworks, people's names, suppliers, risks, document types... Canonical
// (dropdown) orders are the array orders below.
#include <cstddef>
#include <iterator>
#include <string_view>
#include <utility>
#include <vector>

namespace portfolio::generator {

enum Phase
{
    PRE,
    APR,
    EXEC,
    DONE,
    CANC,
    REJ
};

struct Estado
{
    std::string_view name;
    Phase phase;
    double weight;
    std::string_view descripcion;
};
inline constexpr Estado kEstados[] = {
    {"Borrador", PRE, 3.0, "Iniciativa en redacción por el área de negocio, aún no presentada."},
    {"Recibida", PRE, 4.0, "Propuesta recibida por la Oficina del Portfolio, pendiente de análisis."},
    {"En Estudio", PRE, 5.0, "En análisis de viabilidad técnica y económica."},
    {"Revisión Regulación", PRE, 2.5, "En revisión por Regulación (impacto retributivo / CNMC)."},
    {"Pendiente de Aprobación", PRE, 6.0, "Caso de negocio completo, pendiente del Comité de Inversiones."},
    {"Aprobada", APR, 8.0, "Aprobada por el Comité de Inversiones, pendiente de arranque."},
    {"En Planificación", APR, 5.0, "Aprobada; elaborando la planificación detallada."},
    {"En Contratación", APR, 4.0, "Aprobada; en proceso de licitación y contratación."},
    {"En Ejecución", EXEC, 30.0, "En ejecución."},
    {"En Pruebas", EXEC, 4.0, "En pruebas de aceptación previas a la puesta en producción."},
    {"En Pausa", EXEC, 2.0, "Ejecución detenida temporalmente."},
    {"En Cierre", EXEC, 3.0, "Puesta en producción realizada; en cierre administrativo."},
    {"Finalizado", DONE, 12.0, "Iniciativa finalizada."},
    {"Cancelado", CANC, 7.0, "Iniciativa cancelada; solo conserva el importe ya ejecutado."},
    {"Rechazado", REJ, 2.5, "Propuesta rechazada por el Comité de Inversiones."},
};
inline constexpr int kNumEstados = static_cast<int>(std::size(kEstados));
inline constexpr int kEstadoEnEjecucion = 8, kEstadoPruebas = 9, kEstadoPausa = 10, kEstadoCierre = 11,
                     kEstadoFinalizado = 12, kEstadoCancelado = 13, kEstadoAprobada = 5, kEstadoEnEstudio = 2,
                     kEstadoPendAprob = 4, kEstadoRevReg = 3;

struct Prefix
{
    std::string_view code;
    double weight;
    std::string_view ambito;
};
inline constexpr Prefix kPrefixes[] = {
    {"SPA", 60.0, "España"},
    {"DIG", 18.0, "Corporativo"},
    {"POR", 9.0, "Portugal"},
    {"MEX", 7.0, "México"},
    {"UK", 6.0, "Reino Unido"},
};
inline constexpr int kYearMin = 21;
inline constexpr double kYearWeights[] = {5, 8, 14, 26, 35, 12}; // yy 21..26

inline constexpr std::string_view kUnidades[] = {"Distribución", "Redes", "Ingeniería", "Generación", "Renovables",
    "Gestión de Energía", "Comercial", "Clientes", "Finanzas", "Personas", "Compras", "Regulación", "Sistemas",
    "Ciberseguridad"};
inline constexpr double kUnidadPeso[] = {16, 9, 4, 6, 9, 4, 9, 10, 6, 5, 3, 3, 10, 5};
inline constexpr int kUnidadCluster[] = {0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4};
inline constexpr double kUnidadSizeAdj[] = {0.35, 0.4, 0.1, 0.2, 0.35, 0.0, 0.0, 0.05, -0.3, -0.45, -0.4, -0.3, 0.1,
    0.0};
inline constexpr int kNumUnidades = static_cast<int>(std::size(kUnidades));
inline constexpr std::string_view kUnidadCodigo[] = {"DIS", "RED", "ING", "GEN", "REN", "GDE", "COM", "CLI", "FIN",
    "PER", "CMP", "REG", "SIS", "CIB"};

inline constexpr std::string_view kClusters[] = {"Redes", "Generación y Renovables", "Clientes y Comercial",
    "Corporativo", "Tecnología"};
inline constexpr std::string_view kSociedades[] = {"Distribuidora Eléctrica S.A.U.", "Generación y Renovables S.A.U.",
    "Comercializadora de Energía S.A.U.", "Servicios Corporativos S.A.", "Servicios Corporativos S.A."};

struct Tipo
{
    std::string_view name;
    double weight;
    int min_months, max_months;
    double size_adj;
    bool recurrente;
};
inline constexpr Tipo kTipos[] = {
    {"Proyecto", 40, 10, 30, 0.3, false},
    {"Evolutivo", 22, 6, 18, -0.2, false},
    {"Mantenimiento Evolutivo", 10, 12, 36, -0.1, false},
    {"Prueba de Concepto", 8, 3, 8, -1.2, false},
    {"Piloto", 6, 4, 12, -0.7, false},
    {"Licencias", 6, 12, 36, -0.3, true},
    {"Servicio Recurrente", 8, 24, 60, 0.0, true},
    {"Grupo Iniciativas", 0, 0, 0, 0.0, false},
};
inline constexpr int kTipoPoC = 3, kTipoPiloto = 4, kTipoLicencias = 5, kTipoServicio = 6, kTipoGrupo = 7;
inline constexpr int kNumTiposBase = 7;

inline constexpr std::string_view kOrigenes[] = {"Plan Estratégico", "Demanda de Negocio", "Obligación Regulatoria",
    "Obsolescencia Tecnológica", "Innovación", "Mandato Corporativo", "Mejora Continua"};
inline constexpr double kOrigenPeso[] = {22, 30, 10, 12, 10, 6, 10};
inline constexpr std::string_view kPrioridades[] = {"Crítica", "Alta", "Media", "Baja"};
inline constexpr double kPrioridadPeso[] = {8, 30, 45, 17};
inline constexpr std::string_view kAlineacion[] = {"Alta", "Media", "Baja"};
inline constexpr double kAlineacionPeso[] = {35, 45, 20};
inline constexpr std::string_view kCapexOpex[] = {"CAPEX", "OPEX", "CAPEX/OPEX"};
inline constexpr std::string_view kCinis[] = {"I27A1", "I27A2", "I27B1", "I28C0", "I29D3", "I30E1"};
inline constexpr std::string_view kRiesgos[] = {"Alto", "Medio", "Bajo"};
inline constexpr std::string_view kSemaforos[] = {"Verde", "Ámbar", "Rojo"};

inline constexpr std::string_view kL1[] = {"Eficiencia Operativa", "Experiencia de Cliente",
    "Datos e Inteligencia Artificial", "Red Inteligente", "Ciberseguridad", "Plataformas Tecnológicas",
    "Nuevos Negocios", "Personas y Organización"};
inline constexpr int kNumL1 = static_cast<int>(std::size(kL1));
struct L2
{
    std::string_view name;
    int l1;
    std::string_view objetivo; // infinitive clause
    std::vector<std::string_view> objetos;
};
std::vector<L2> const& l2_table();

// Primary level-1 frameworks per unit (first = most likely).
std::vector<std::vector<int>> const& unit_l1();
/// Whether a domain-specific object fits the unit's cluster (objects not listed fit every cluster).
bool object_fits(std::string_view obj, int unidad);
/// Indices of the level-2 framework's objects that fit the unit.
std::vector<int> fitting_objects(int l2, int unidad);
/// Context phrases per unit ("en subestaciones").
std::vector<std::vector<std::string_view>> const& unit_contexts();

struct Verbo
{
    std::string_view name;     // "Implantación de"
    std::string_view articulo; // "la"
};
inline constexpr Verbo kVerbos[] = {
    {"Implantación de", "la"},
    {"Evolución de", "la"},
    {"Desarrollo de", "el"},
    {"Despliegue de", "el"},
    {"Mejora de", "la"},
    {"Renovación de", "la"},
    {"Integración de", "la"},
    {"Ampliación de", "la"},
    {"Optimización de", "la"},
    {"Piloto de", "el"},
    {"Adecuación de", "la"},
    {"Industrialización de", "la"},
    {"Extensión de", "la"},
    {"Modernización de", "la"},
};
inline constexpr std::string_view kSufijos[] = {" - Fase II", " - Fase III", " - Ola 2", " (Fase 2)", " - Fase IV",
    " - Ola 3"};

inline constexpr std::string_view kNombres[] = {"Ana", "Carlos", "María", "Javier", "Lucía", "David", "Elena", "Jorge",
    "Marta", "Pablo", "Laura", "Sergio", "Carmen", "Alberto", "Cristina", "Raúl", "Isabel", "Fernando", "Beatriz",
    "Miguel", "Patricia", "Álvaro", "Nuria", "Íñigo", "Sonia", "Rubén", "Pilar", "Andrés", "Rocío", "Gonzalo", "Silvia",
    "Óscar", "Begoña", "Héctor", "Irene", "Iván", "Noelia", "Jesús", "Inmaculada", "Enrique", "Aitor", "Maite",
    "Joaquín", "Ainhoa", "Ramón", "Yolanda", "Víctor", "Eva", "Ignacio", "Montserrat", "Marina", "Diego", "Teresa",
    "Luis", "Alicia", "Francisco", "Rosa", "Adrián"};
inline constexpr std::string_view kApellidos[] = {"García", "Fernández", "González", "Rodríguez", "López", "Martínez",
    "Sánchez", "Pérez", "Gómez", "Martín", "Jiménez", "Ruiz", "Hernández", "Díaz", "Moreno", "Muñoz", "Álvarez",
    "Romero", "Alonso", "Gutiérrez", "Navarro", "Torres", "Domínguez", "Vázquez", "Ramos", "Gil", "Ramírez", "Serrano",
    "Blanco", "Molina", "Morales", "Suárez", "Ortega", "Delgado", "Castro", "Ortiz", "Rubio", "Marín", "Sanz", "Núñez",
    "Iglesias", "Medina", "Garrido", "Cortés", "Castillo", "Santos", "Lozano", "Guerrero", "Cano", "Prieto", "Méndez",
    "Calvo", "Gallego", "Vidal", "León", "Márquez", "Herrera", "Peña", "Cabrera", "Campos", "Vega", "Fuentes",
    "Carrasco", "Díez", "Caballero", "Nieto", "Aguilar", "Pascual", "Herrero", "Lorenzo", "Hidalgo", "Montero",
    "Ibáñez", "Ferrer", "Durán", "Echeverría", "Arrieta", "Urrutia", "Goikoetxea", "Etxeberria", "Zubizarreta",
    "Olabarria"};

inline constexpr std::string_view kProveedores[] = {"Consultoría Iberia Digital S.L.", "TecnoRed Servicios S.A.",
    "Datalia Analytics S.L.", "Nube Sur Cloud S.L.", "Grupo Integra Sistemas S.A.", "Ciberdefensa Norte S.L.",
    "Soluciones Energéticas Avanzadas S.A.", "Ingenia Software S.L.", "Medidas y Control S.A.",
    "Atlántico IT Partners S.L.", "Vértice Consultores S.L.", "Sistemas Cantábrico S.A."};

inline constexpr std::string_view kRiesgosTexto[] = {"retrasos en la disponibilidad de los entornos de pruebas",
    "la dependencia de un único proveedor", "la falta de disponibilidad de usuarios clave",
    "la complejidad de la integración con sistemas heredados", "la calidad insuficiente de los datos de origen",
    "el incremento de costes por cambios de alcance", "cambios regulatorios pendientes de publicación",
    "la resistencia al cambio en los equipos operativos",
    "la exposición de nuevos servicios a riesgos de ciberseguridad", "plazos de contratación ajustados",
    "la escasez de perfiles especializados en el mercado", "la coordinación con otras iniciativas en curso"};
inline constexpr std::string_view kMitigaciones[] = {"un plan de pruebas anticipado con entornos dedicados",
    "la incorporación de un segundo proveedor homologado",
    "la reserva de dedicación de los usuarios clave desde el arranque",
    "una arquitectura de integración basada en APIs", "un plan de depuración y calidad de datos previo a la migración",
    "un comité de control de cambios de alcance", "un seguimiento quincenal con el área de Regulación",
    "un plan de gestión del cambio y formación", "una revisión de arquitectura por el equipo de Ciberseguridad",
    "la tramitación urgente del expediente de contratación"};
inline constexpr std::string_view kEntregables[] = {"análisis funcional", "diseño técnico",
    "primer incremento funcional", "entorno de pruebas", "informe de resultados del piloto", "plan de despliegue",
    "modelo de datos", "manual de usuario"};
inline constexpr std::string_view kAlcanceItems[] = {"el análisis de requisitos con las áreas usuarias",
    "el diseño de la solución y de su arquitectura", "la integración con los sistemas existentes",
    "la migración y depuración de datos", "la formación de los usuarios finales",
    "el soporte post-implantación durante tres meses", "la definición de indicadores de seguimiento",
    "la adecuación de los procesos operativos"};

inline constexpr std::string_view kHechoEstados[] = {"Propuesto", "En Revisión", "Aprobado", "Ampliación Solicitada",
    "Reducción", "Rechazado", "Cancelado"};
enum HechoEstado
{
    H_PROP,
    H_REV,
    H_APROB,
    H_AMPL,
    H_RED,
    H_RECH,
    H_CANC
};
inline constexpr std::string_view kCalidad[] = {"Alta", "Media", "Baja"};

inline constexpr std::string_view kAccionEstados[] = {"Pendiente", "En curso", "Completada", "Cancelada"};
inline constexpr std::string_view kNivel3[] = {"Alta", "Media", "Baja"};
inline constexpr std::string_view kDocEstados[] = {"Pendiente", "Completado", "Error", "Ignorado"};

struct DocTipo
{
    std::string_view name;
    std::string_view formato;
    std::vector<std::pair<std::string_view, int>> secciones; // title, content kind
};
enum Sec
{
    S_RES,
    S_SIT,
    S_PROP,
    S_ALC,
    S_ECO,
    S_PLAN,
    S_RIE,
    S_BEN,
    S_CON,
    S_ACU,
    S_EQU,
    S_REQ,
    S_AVA
};
std::vector<DocTipo> const& doc_tipos();
enum DocT
{
    D_BC,
    D_IM,
    D_FICHA,
    D_ACTA,
    D_EF,
    D_OFERTA,
    D_INFORME,
    D_PLAN
};

inline constexpr std::string_view kEtiquetas[] = {"Seguimiento Especial", "Comité de Dirección",
    "Plan Estratégico 2025", "Fondos Next Generation", "IA", "Quick Win", "Cloud", "Regulatorio", "Sostenibilidad",
    "Obsolescencia", "Ciberseguridad", "Datos", "Automatización", "Experiencia de Cliente", "OT", "Innovación",
    "Transición Energética", "SAP", "Eficiencia", "PERTE"};
struct Destacada
{
    std::string_view etiqueta, color, descripcion;
};
inline constexpr Destacada kDestacadas[] = {
    {"Seguimiento Especial", "#D32F2F", "Iniciativas con seguimiento reforzado por la Dirección Digital."},
    {"Comité de Dirección", "#7B1FA2", "Iniciativas que se reportan al Comité de Dirección."},
    {"Plan Estratégico 2025", "#1565C0", "Iniciativas tractoras del Plan Estratégico 2025."},
    {"Fondos Next Generation", "#2E7D32", "Iniciativas con financiación de fondos europeos Next Generation."},
    {"IA", "#F9A825", "Iniciativas de inteligencia artificial (incluida IA generativa)."},
    {"Quick Win", "#00838F", "Iniciativas de bajo coste y retorno rápido."},
};

inline constexpr std::string_view kTiposNota[] = {"Seguimiento", "Comité", "Riesgo", "Decisión", "Informativa"};
inline constexpr std::string_view kTiposDependencia[] = {"Técnica", "Funcional", "Contractual", "Organizativa",
    "Datos"};
inline constexpr std::string_view kEstadosDependencia[] = {"Abierta", "En riesgo", "Resuelta"};
inline constexpr std::string_view kLtpEstados[] = {"Pendiente", "En curso", "Completada", "Bloqueada"};
inline constexpr std::string_view kHitoEstados[] = {"Completado", "En curso", "Pendiente", "Retrasado", "Cancelado"};
inline constexpr std::string_view kEstadosEspeciales[] = {"Congelada por presupuesto", "Revisión por Comité",
    "Prioridad estratégica", "Bloqueada por dependencia", "Pendiente de regulación", "Fast Track"};
inline constexpr std::string_view kMemoEstados[] = {"Borrador", "Presentado", "Aprobado", "Rechazado", "Sustituido"};
inline constexpr std::string_view kAreasTecnicas[] = {"Operación de Red", "Mantenimiento", "Protecciones",
    "Telecontrol", "Sistemas OT", "Medida", "Planificación de Red", "Seguridad y Salud"};
inline constexpr std::string_view kTiposImpacto[] = {"Procesos", "Sistemas", "Organización", "Formación"};
inline constexpr std::string_view kTiposJustificacion[] = {"Cambio de estado", "Desviación presupuestaria",
    "Retraso en plazos", "Cancelación", "Rechazo", "Paralización", "Ampliación de alcance"};
inline constexpr std::string_view kTiposFicha[] = {"Seguimiento trimestral", "Cierre anual"};
inline constexpr std::string_view kClasifReg[] = {"Retribuible", "No retribuible"};
inline constexpr std::string_view kWbeEstados[] = {"Abierta", "Cerrada"};
inline constexpr std::string_view kBenefEstados[] = {"Estimado", "Comprometido", "Realizado"};

struct TipoBeneficio
{
    std::string_view name, unidad_medida;
};
inline constexpr TipoBeneficio kTiposBeneficio[] = {
    {"Ahorro de costes", "€"},
    {"Incremento de ingresos", "€"},
    {"Reducción de horas de trabajo", "horas"},
    {"Reducción de emisiones", "tCO2e"},
    {"Mejora de la satisfacción del cliente", "puntos NPS"},
    {"Reducción de riesgos", "€"},
    {"Reducción del tiempo de interrupción", "minutos TIEPI"},
};
// benefit kinds per level-1 framework
std::vector<std::vector<int>> const& l1_beneficios();

inline constexpr std::string_view kLtpTareas[] = {"Elaborar el caso de negocio", "Definir los requisitos funcionales",
    "Licitación y adjudicación", "Diseño de la arquitectura técnica", "Desarrollo de integraciones",
    "Migración de datos", "Pruebas integradas", "Formación a usuarios", "Gestión del cambio",
    "Despliegue en producción", "Revisión de seguridad", "Definición de KPIs de seguimiento"};
/// Milestones per initiative type.
std::vector<std::string_view> const& hitos_de_tipo(int tipo);

inline constexpr std::string_view kSemaforosMinus[] = {"verde", "ámbar", "rojo"};
inline constexpr std::string_view kRequisitos[] = {"El sistema permitirá la consulta de la información en tiempo real.",
    "La solución se integrará con el directorio corporativo para la autenticación de usuarios.",
    "Se generarán informes periódicos exportables a Excel.",
    "Se registrará la trazabilidad de todas las operaciones realizadas.",
    "La aplicación estará disponible en dispositivos móviles para el personal de campo.",
    "Se definirán perfiles de acceso diferenciados por rol.",
    "La solución cumplirá la normativa de protección de datos (RGPD)."};

} // namespace portfolio::generator

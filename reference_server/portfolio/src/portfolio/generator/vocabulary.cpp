// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#include "portfolio/generator/vocabulary.hpp"

namespace portfolio::generator {

std::vector<L2> const& l2_table()
{
    static std::vector<L2> const t = {
        {"Mantenimiento Predictivo", 0,
            "anticipar averías en activos críticos mediante modelos predictivos y reducir el mantenimiento correctivo",
            {"plataforma de mantenimiento predictivo", "modelos de predicción de averías",
                "sistema de monitorización de condición de activos", "analítica de vibraciones",
                "motor de priorización de mantenimiento"}},
        {"Automatización de Procesos", 0,
            "automatizar tareas manuales repetitivas y reducir los tiempos de tramitación",
            {"robots RPA", "flujos de aprobación digital", "gestor documental automatizado",
                "automatización de conciliaciones", "orquestador de procesos"}},
        {"Gestión de Activos", 0, "disponer de una visión única y fiable del inventario de activos y de su estado",
            {"inventario digital de activos", "sistema de gestión de activos (EAM)",
                "registro georreferenciado de instalaciones", "modelo de criticidad de activos"}},
        {"Optimización de Operaciones", 0,
            "optimizar la planificación de los trabajos de campo y mejorar la productividad de las brigadas",
            {"herramienta de planificación de brigadas", "app de trabajos en campo",
                "optimizador de rutas de operarios", "cuadro de mando operativo"}},
        {"Canales Digitales", 1,
            "mejorar la experiencia digital de los clientes e incrementar el uso de los canales de autoservicio",
            {"área privada de clientes", "app móvil de clientes", "portal web comercial", "asistente virtual",
                "canal de atención por WhatsApp"}},
        {"Personalización", 1, "ofrecer propuestas comerciales personalizadas a cada segmento de clientes",
            {"motor de recomendaciones", "segmentación avanzada de clientes", "ofertas personalizadas",
                "plataforma de marketing automatizado"}},
        {"Atención al Cliente", 1, "reducir los tiempos de resolución de consultas y reclamaciones",
            {"CRM de atención", "sistema de gestión de reclamaciones", "enrutado inteligente de llamadas",
                "base de conocimiento para agentes"}},
        {"Facturación y Cobros", 1, "simplificar el proceso de facturación y reducir la tasa de impagos",
            {"sistema de facturación", "pasarela de pagos", "gestión de impagos", "factura digital"}},
        {"Plataforma de Datos", 2, "consolidar los datos corporativos en una plataforma única, escalable y gobernada",
            {"plataforma de datos corporativa", "data lake", "catálogo de datos", "capa de ingesta en tiempo real"}},
        {"Analítica Avanzada", 2, "mejorar la toma de decisiones mediante modelos analíticos avanzados",
            {"modelos de previsión de demanda", "cuadros de mando analíticos", "modelo de detección de fraude",
                "previsión de producción renovable"}},
        {"IA Generativa", 2,
            "aplicar la inteligencia artificial generativa para aumentar la productividad de los equipos",
            {"asistente de IA generativa", "copiloto documental", "resumen automático de documentación",
                "chatbot interno basado en LLM"}},
        {"Gobierno del Dato", 2, "garantizar la calidad, la trazabilidad y la propiedad de los datos críticos",
            {"modelo de gobierno del dato", "herramienta de calidad de datos", "glosario de negocio",
                "linaje de datos"}},
        {"Telemedida y Contadores", 3, "mejorar la lectura remota de contadores y la calidad de los datos de medida",
            {"sistema de telegestión de contadores", "concentradores de telemedida", "plataforma MDM de medida",
                "analítica de curvas de carga"}},
        {"Automatización de Red", 3,
            "reducir los tiempos de reposición del suministro mediante la automatización de la red",
            {"telecontrol de centros de transformación", "sistema ADMS", "reconfiguración automática de red (FLISR)",
                "protecciones digitales"}},
        {"Gemelo Digital", 3,
            "disponer de una réplica digital de los activos para simular escenarios y planificar inversiones",
            {"gemelo digital de la red", "modelo 3D de subestaciones", "simulador de escenarios de red",
                "gemelo digital de parques eólicos"}},
        {"Integración de Renovables", 3, "facilitar la integración de la generación renovable distribuida en la red",
            {"gestión de accesos y conexiones", "plataforma de flexibilidad",
                "sistema de gestión de recursos distribuidos (DERMS)", "previsión de generación distribuida"}},
        {"Protección OT", 4, "reforzar la seguridad de los sistemas de control industrial frente a ciberataques",
            {"segmentación de redes OT", "monitorización de seguridad OT", "bastionado de sistemas SCADA",
                "SOC industrial"}},
        {"Gestión de Identidades", 4, "asegurar que cada usuario accede únicamente a los recursos que necesita",
            {"gestión de identidades y accesos (IAM)", "autenticación multifactor", "gestión de accesos privilegiados",
                "gobierno de identidades"}},
        {"Seguridad Cloud", 4, "proteger las cargas de trabajo desplegadas en la nube",
            {"postura de seguridad cloud", "protección de cargas en la nube", "cifrado de datos en la nube",
                "gestión de secretos"}},
        {"Cumplimiento Normativo", 4, "cumplir con los requisitos normativos de ciberseguridad aplicables",
            {"adecuación a NIS2", "cumplimiento del ENS", "gestión de riesgos tecnológicos",
                "plan de continuidad de negocio"}},
        {"Cloud", 5, "migrar cargas de trabajo a la nube para ganar escalabilidad y reducir costes de infraestructura",
            {"infraestructura cloud", "plataforma de contenedores", "landing zone en la nube",
                "servicios de backup en la nube"}},
        {"Modernización de Aplicaciones", 5, "sustituir aplicaciones obsoletas por soluciones modernas y mantenibles",
            {"aplicaciones legacy", "ERP corporativo", "sistema comercial", "arquitectura de microservicios"}},
        {"Integración", 5, "estandarizar la integración entre sistemas mediante APIs y eventos",
            {"plataforma de integración (API Management)", "bus de eventos", "integraciones con SAP",
                "pasarela de intercambio con distribuidoras"}},
        {"Puesto de Trabajo", 5, "dotar a los empleados de un puesto de trabajo digital moderno y seguro",
            {"puesto de trabajo digital", "herramientas de colaboración", "gestión de dispositivos móviles",
                "virtualización de escritorios"}},
        {"Movilidad Eléctrica", 6, "impulsar la movilidad eléctrica con servicios digitales de recarga",
            {"red de puntos de recarga", "app de recarga de vehículos eléctricos",
                "plataforma de gestión de flotas eléctricas", "sistema de roaming de recarga"}},
        {"Autoconsumo", 6, "facilitar la contratación y el seguimiento de instalaciones de autoconsumo",
            {"plataforma de autoconsumo", "simulador de instalaciones fotovoltaicas",
                "gestión de comunidades energéticas", "monitorización de autoconsumo"}},
        {"Almacenamiento", 6, "optimizar la operación de los sistemas de almacenamiento energético",
            {"sistema de gestión de baterías", "optimizador de almacenamiento", "plataforma de servicios de balance"}},
        {"Hidrógeno Verde", 6, "monitorizar y optimizar la producción de hidrógeno verde",
            {"monitorización de electrolizadores", "plataforma de trazabilidad de hidrógeno verde",
                "modelo de costes de hidrógeno"}},
        {"Gestión del Talento", 7, "digitalizar los procesos de gestión de personas",
            {"portal del empleado", "sistema de evaluación del desempeño", "plataforma de selección",
                "gestión de nóminas"}},
        {"Colaboración", 7, "mejorar la colaboración y la gestión del conocimiento entre equipos",
            {"intranet corporativa", "gestión del conocimiento", "espacios de trabajo colaborativos"}},
        {"Formación Digital", 7, "acelerar la adquisición de competencias digitales de la plantilla",
            {"plataforma de formación online", "academia de competencias digitales",
                "simuladores de formación en realidad virtual"}},
    };
    return t;
}

std::vector<std::vector<int>> const& unit_l1()
{
    static std::vector<std::vector<int>> const t = {
        {3, 0, 2},
        {3, 0},
        {0, 3, 5},
        {0, 2},
        {0, 6, 2},
        {2, 6},
        {1, 6, 2},
        {1, 2},
        {0, 5, 2},
        {7, 5},
        {0, 5},
        {2, 4, 0},
        {5, 2, 4},
        {4},
    };
    return t;
}

namespace {

// Cluster affinity of domain-specific objects (bit c = kClusters[c]); objects not listed fit every cluster.
constexpr int R_ = 1, G_ = 2, C_ = 4, K_ = 8, T_ = 16;
struct Afinidad
{
    std::string_view objeto;
    int mask;
};
constexpr Afinidad kAfinidad[] = {
    {"plataforma de mantenimiento predictivo", R_ | G_},
    {"modelos de predicción de averías", R_ | G_},
    {"sistema de monitorización de condición de activos", R_ | G_},
    {"analítica de vibraciones", R_ | G_},
    {"motor de priorización de mantenimiento", R_ | G_},
    {"inventario digital de activos", R_ | G_ | T_},
    {"sistema de gestión de activos (EAM)", R_ | G_},
    {"registro georreferenciado de instalaciones", R_ | G_},
    {"modelo de criticidad de activos", R_ | G_},
    {"herramienta de planificación de brigadas", R_ | G_},
    {"app de trabajos en campo", R_ | G_ | C_},
    {"optimizador de rutas de operarios", R_ | G_ | C_},
    {"área privada de clientes", C_ | R_},
    {"app móvil de clientes", C_ | R_},
    {"portal web comercial", C_},
    {"canal de atención por WhatsApp", C_ | R_},
    {"motor de recomendaciones", C_},
    {"segmentación avanzada de clientes", C_},
    {"ofertas personalizadas", C_},
    {"plataforma de marketing automatizado", C_},
    {"CRM de atención", C_ | R_},
    {"sistema de gestión de reclamaciones", C_ | R_},
    {"enrutado inteligente de llamadas", C_ | R_},
    {"base de conocimiento para agentes", C_ | R_},
    {"sistema de facturación", C_ | K_ | R_},
    {"pasarela de pagos", C_ | K_},
    {"gestión de impagos", C_ | K_},
    {"factura digital", C_ | K_},
    {"modelos de previsión de demanda", R_ | G_ | C_},
    {"modelo de detección de fraude", R_ | C_ | K_},
    {"previsión de producción renovable", G_},
    {"sistema de telegestión de contadores", R_},
    {"concentradores de telemedida", R_},
    {"plataforma MDM de medida", R_ | C_},
    {"analítica de curvas de carga", R_ | C_ | G_},
    {"telecontrol de centros de transformación", R_},
    {"sistema ADMS", R_},
    {"reconfiguración automática de red (FLISR)", R_},
    {"protecciones digitales", R_ | G_},
    {"gemelo digital de la red", R_},
    {"modelo 3D de subestaciones", R_},
    {"simulador de escenarios de red", R_},
    {"gemelo digital de parques eólicos", G_},
    {"gestión de accesos y conexiones", R_ | G_},
    {"plataforma de flexibilidad", R_ | G_},
    {"sistema de gestión de recursos distribuidos (DERMS)", R_ | G_},
    {"previsión de generación distribuida", R_ | G_},
    {"segmentación de redes OT", R_ | G_ | T_},
    {"monitorización de seguridad OT", R_ | G_ | T_},
    {"bastionado de sistemas SCADA", R_ | G_ | T_},
    {"SOC industrial", R_ | G_ | T_},
    {"red de puntos de recarga", R_ | C_ | G_},
    {"app de recarga de vehículos eléctricos", C_ | G_},
    {"plataforma de gestión de flotas eléctricas", C_ | G_},
    {"sistema de roaming de recarga", C_ | G_},
    {"plataforma de autoconsumo", C_ | G_ | R_},
    {"simulador de instalaciones fotovoltaicas", C_ | G_ | R_},
    {"gestión de comunidades energéticas", C_ | G_ | R_},
    {"monitorización de autoconsumo", C_ | G_ | R_},
    {"sistema de gestión de baterías", G_},
    {"optimizador de almacenamiento", G_},
    {"plataforma de servicios de balance", G_},
    {"monitorización de electrolizadores", G_},
    {"plataforma de trazabilidad de hidrógeno verde", G_},
    {"modelo de costes de hidrógeno", G_},
};

} // namespace

bool object_fits(std::string_view obj, int unidad)
{
    int const bit = 1 << kUnidadCluster[unidad];
    for(auto const& a : kAfinidad)
        if(a.objeto == obj)
            return (a.mask & bit) != 0;
    return true;
}
std::vector<int> fitting_objects(int l2, int unidad)
{
    std::vector<int> v;
    auto const& objs = l2_table()[static_cast<std::size_t>(l2)].objetos;
    for(std::size_t k = 0; k < objs.size(); ++k)
        if(object_fits(objs[k], unidad))
            v.push_back(static_cast<int>(k));
    return v;
}

std::vector<std::vector<std::string_view>> const& unit_contexts()
{
    static std::vector<std::vector<std::string_view>> const t = {
        {"en subestaciones", "para la red de media tensión", "en centros de transformación",
            "para la red de baja tensión", "en la zona Centro", "para brigadas de mantenimiento"},
        {"en la red de transporte", "para la operación de red", "en el centro de control",
            "para la planificación de red", "en líneas de alta tensión"},
        {"en proyectos de ingeniería", "para obras de nueva construcción", "en ingeniería de redes",
            "para la gestión de proyectos de obra"},
        {"en centrales de ciclo combinado", "en centrales hidráulicas", "para la flota de generación",
            "en centrales térmicas", "para el despacho de generación"},
        {"en parques eólicos", "en plantas fotovoltaicas", "para parques eólicos marinos",
            "en instalaciones de almacenamiento", "para activos renovables"},
        {"para la mesa de trading", "en la gestión de energía", "para mercados mayoristas",
            "para la cobertura de riesgos de mercado"},
        {"para el mercado residencial", "para grandes clientes", "para pymes", "en la comercializadora",
            "para el canal de ventas"},
        {"para clientes residenciales", "en el centro de atención telefónica", "para clientes vulnerables",
            "en oficinas comerciales", "para el canal digital"},
        {"para el área de Finanzas", "en contabilidad", "para tesorería", "en el cierre contable",
            "para control de gestión"},
        {"para todos los empleados", "en Recursos Humanos", "para mandos intermedios", "para el personal de campo"},
        {"en Compras", "para la gestión de proveedores", "en la cadena de suministro", "para almacenes logísticos"},
        {"para reporting regulatorio", "ante la CNMC", "para auditorías regulatorias",
            "para la liquidación de la retribución"},
        {"en el centro de datos", "para aplicaciones corporativas", "en entornos SAP", "para el área de Sistemas",
            "a nivel corporativo"},
        {"en entornos OT", "para sistemas críticos", "a nivel corporativo", "en el centro de control",
            "para proveedores externos"},
    };
    return t;
}

std::vector<DocTipo> const& doc_tipos()
{
    static std::vector<DocTipo> const t = {
        {"Business Case", "PDF",
            {{"Resumen ejecutivo", S_RES}, {"Situación actual", S_SIT}, {"Propuesta de solución", S_PROP},
                {"Análisis económico", S_ECO}, {"Beneficios esperados", S_BEN}, {"Riesgos", S_RIE},
                {"Conclusiones", S_CON}}},
        {"Investment Memo", "PDF",
            {{"Resumen", S_RES}, {"Necesidad de negocio", S_SIT}, {"Alternativas analizadas", S_PROP},
                {"Presupuesto solicitado", S_ECO}, {"Calendario", S_PLAN}, {"Recomendación", S_CON}}},
        {"Ficha de Iniciativa", "DOCX",
            {{"Datos generales", S_RES}, {"Objetivo y alcance", S_ALC}, {"Presupuesto", S_ECO}, {"Responsables", S_EQU},
                {"Riesgos principales", S_RIE}}},
        {"Acta de Comité", "PDF",
            {{"Asistentes", S_EQU}, {"Asuntos tratados", S_RES}, {"Situación económica", S_ECO}, {"Acuerdos", S_ACU}}},
        {"Especificación Funcional", "DOCX",
            {{"Introducción", S_RES}, {"Alcance funcional", S_ALC}, {"Requisitos funcionales", S_REQ},
                {"Integraciones", S_PROP}, {"Planificación", S_PLAN}}},
        {"Oferta de Proveedor", "PDF",
            {{"Resumen de la oferta", S_RES}, {"Enfoque técnico", S_PROP}, {"Equipo propuesto", S_EQU},
                {"Oferta económica", S_ECO}, {"Planificación", S_PLAN}}},
        {"Informe de Seguimiento", "PDF",
            {{"Resumen del periodo", S_AVA}, {"Hitos alcanzados", S_PLAN}, {"Situación económica", S_ECO},
                {"Riesgos y problemas", S_RIE}, {"Próximos pasos", S_CON}}},
        {"Plan de Proyecto", "XLSX",
            {{"Objetivos", S_RES}, {"Fases del proyecto", S_PLAN}, {"Recursos", S_EQU}, {"Presupuesto por año", S_ECO},
                {"Gestión de riesgos", S_RIE}}},
    };
    return t;
}

std::vector<std::vector<int>> const& l1_beneficios()
{
    static std::vector<std::vector<int>> const t = {
        {0, 2, 3},
        {4, 1, 0},
        {0, 1, 2},
        {6, 0, 3},
        {5, 0},
        {0, 2},
        {1, 3, 0},
        {2, 0},
    };
    return t;
}

std::vector<std::string_view> const& hitos_de_tipo(int tipo)
{
    static std::vector<std::vector<std::string_view>> const t = {
        {"Kick-off del proyecto", "Análisis funcional cerrado", "Diseño técnico aprobado", "Desarrollo completado",
            "Pruebas de aceptación (UAT)", "Puesta en producción", "Cierre del proyecto"},
        {"Toma de requisitos", "Desarrollo completado", "Pruebas de aceptación (UAT)", "Puesta en producción"},
        {"Plan de versiones aprobado", "Release 1 en producción", "Release 2 en producción", "Release 3 en producción"},
        {"Kick-off", "Preparación del entorno", "Ejecución de la prueba de concepto", "Evaluación de resultados",
            "Decisión de escalado"},
        {"Kick-off del piloto", "Despliegue del piloto", "Evaluación de resultados", "Decisión de escalado"},
        {"Adjudicación del contrato", "Provisión de licencias", "Despliegue a usuarios"},
        {"Adjudicación del contrato", "Transición del servicio", "Inicio del servicio", "Revisión anual del servicio"},
        {"Lanzamiento del programa"},
    };
    return t[static_cast<std::size_t>(tipo)];
}

} // namespace portfolio::generator
